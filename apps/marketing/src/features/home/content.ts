import type { LucideIcon } from 'lucide-react';
import ChartColumn from 'lucide-react/icons/chart-column';
import CreditCard from 'lucide-react/icons/credit-card';
import History from 'lucide-react/icons/history';
import KeyRound from 'lucide-react/icons/key-round';
import PanelsTopLeft from 'lucide-react/icons/panels-top-left';
import ScrollText from 'lucide-react/icons/scroll-text';
import Search from 'lucide-react/icons/search';
import ShieldQuestion from 'lucide-react/icons/shield-question';
import type { MessageKey } from '../../lib/i18n';

/** The home page's content as catalogue keys (the texts are in src/locales; `text` may use `{product}`). */
interface Feature {
  icon: LucideIcon;
  title: MessageKey;
  text: MessageKey;
}

export const FEATURES: Feature[] = [
  { icon: PanelsTopLeft, title: 'home.feature.panels.title', text: 'home.feature.panels.text' },
  { icon: Search, title: 'home.feature.transcripts.title', text: 'home.feature.transcripts.text' },
  { icon: ChartColumn, title: 'home.feature.statistics.title', text: 'home.feature.statistics.text' },
  { icon: ScrollText, title: 'home.feature.webLogs.title', text: 'home.feature.webLogs.text' },
  { icon: History, title: 'home.feature.versions.title', text: 'home.feature.versions.text' },
  { icon: CreditCard, title: 'home.feature.providers.title', text: 'home.feature.providers.text' },
  { icon: KeyRound, title: 'home.feature.sessions.title', text: 'home.feature.sessions.text' },
  { icon: ShieldQuestion, title: 'home.feature.access.title', text: 'home.feature.access.text' },
];

export const STEPS: Array<{ title: MessageKey; text: MessageKey }> = [
  { title: 'home.step.add.title', text: 'home.step.add.text' },
  { title: 'home.step.build.title', text: 'home.step.build.text' },
  { title: 'home.step.send.title', text: 'home.step.send.text' },
];

/** Where other ticket bots fall short (competitors.md), told as what admins get here. */
export const REASONS: Array<{ title: MessageKey; text: MessageKey }> = [
  { title: 'home.reason.signIn.title', text: 'home.reason.signIn.text' },
  { title: 'home.reason.transcripts.title', text: 'home.reason.transcripts.text' },
  { title: 'home.reason.access.title', text: 'home.reason.access.text' },
  { title: 'home.reason.undo.title', text: 'home.reason.undo.text' },
  { title: 'home.reason.billing.title', text: 'home.reason.billing.text' },
  { title: 'home.reason.themes.title', text: 'home.reason.themes.text' },
];
