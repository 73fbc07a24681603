import ChartColumn from 'lucide-react/icons/chart-column';
import CreditCard from 'lucide-react/icons/credit-card';
import History from 'lucide-react/icons/history';
import KeyRound from 'lucide-react/icons/key-round';
import PanelsTopLeft from 'lucide-react/icons/panels-top-left';
import ScrollText from 'lucide-react/icons/scroll-text';
import Search from 'lucide-react/icons/search';
import ShieldQuestion from 'lucide-react/icons/shield-question';
import type { LucideIcon } from 'lucide-react';

export interface Feature {
  icon: LucideIcon;
  title: string;
  text: (product: string) => string;
}

export const FEATURES: Feature[] = [
  {
    icon: PanelsTopLeft,
    title: 'Panels with buttons and forms',
    text: () =>
      'Post a panel with up to five buttons; each opens a private ticket channel in the category you choose. Ask up to five questions first so staff start with context. Edit a posted panel in place instead of recreating it.',
  },
  {
    icon: Search,
    title: 'Transcripts on the web, with search',
    text: (p) =>
      `Closed tickets are kept by ${p}, not as Discord links that expire after a week. Read them like Discord shows them, search inside them and download them. Openers see their own; staff see them all.`,
  },
  {
    icon: ChartColumn,
    title: 'Statistics that answer questions',
    text: () =>
      'Tickets opened and closed over time, open backlog, first-response and resolution times (median and p90), per panel and per staff member, ratings, with CSV export.',
  },
  {
    icon: ScrollText,
    title: 'Web logs: a full audit trail',
    text: () => 'Every change made in the dashboard: who made it, when, and exactly what changed, as a before-and-after diff. Filter by member, action and date.',
  },
  {
    icon: History,
    title: 'Config versions with restore',
    text: () =>
      'Every save is a version. Compare any version with the current one and restore it in one click, as a new version. Export a signed file and import it on another server.',
  },
  {
    icon: CreditCard,
    title: 'Premium across four providers',
    text: () =>
      'Pay with Paddle, FastSpring, Discord app subscriptions or Chargebee, see every subscription on one billing page, and move premium to another server when you need to.',
  },
  {
    icon: KeyRound,
    title: 'Server-side sessions',
    text: (p) =>
      `Sign in with Discord; your Discord tokens stay encrypted on ${p}'s servers, never in your browser. Sessions can be revoked, and signing out really signs you out.`,
  },
  {
    icon: ShieldQuestion,
    title: 'Clear answers on access',
    text: () =>
      "Can't open a server? The dashboard tells you why: who can manage it (the owner, Administrator or Manage Server) and what to do next, instead of a bare 'No permission'.",
  },
];

export const STEPS = [
  {
    title: 'Add the bot',
    text: 'Press “Add to Discord”, pick your server and approve. The bot asks only for the permissions tickets need.',
  },
  {
    title: 'Build your panel',
    text: 'Sign in to the dashboard, choose the ticket category, support roles and a form, and watch the live preview as you go.',
  },
  {
    title: 'Send it and start helping',
    text: 'Post the panel to a channel. Members press a button, your team claims the ticket and, once it is closed, the transcript is saved on the web.',
  },
];

/** Where other ticket bots fall short (competitors.md), told as what admins get here. */
export const REASONS = [
  {
    title: 'Sign-in you can trust',
    text: 'Revocable server-side sessions, OAuth with state and PKCE. No never-expiring token in browser storage, no Discord token in a cookie; logging out revokes the session.',
  },
  {
    title: 'Transcripts that stay',
    text: 'Stored and compressed by us instead of depending on Discord attachment links that expire, and searchable within the page.',
  },
  {
    title: 'We explain “no access”',
    text: 'The most common support question answered in the product: why a server is missing or locked, and how to fix it.',
  },
  {
    title: 'Undo for your configuration',
    text: 'Every configuration is kept as a version with a diff and a one-click restore; exports are signed and checked on import.',
  },
  {
    title: 'One billing view',
    text: 'Subscriptions from four payment providers in one place, and premium you can move between your servers.',
  },
  {
    title: 'Light or dark, on any screen',
    text: 'The whole dashboard works in light and dark mode and on a phone, so you can answer a ticket from anywhere.',
  },
];
