import type { ConfigProblem } from '@tickety/api-contract';
import { Link } from '@tickety/shared';
import { buttonClasses } from '@tickety/ui';
import { catalog, type MessageKey, useT } from './i18n';

type Translate = ReturnType<typeof useT>;

/** "#support", or "channel 1200…" when Discord no longer has it (a category by its name alone). */
function targetText(t: Translate, problem: ConfigProblem): string {
  const target = problem.target;
  if (!target) return '';
  const category = problem.kind === 'category-missing' || problem.kind === 'category-full';
  if (target.name === null) return t(category ? 'health.categoryId' : 'health.channelId', { id: target.id });
  return category ? target.name : t('health.channel', { name: target.name });
}

/** "View Channel and Send Messages". */
function permissionsText(t: Translate, names: string[]): string {
  const words = names.map((name) => (['VIEW_CHANNEL', 'SEND_MESSAGES', 'EMBED_LINKS'].includes(name) ? t(`health.permission.${name}` as MessageKey) : name));
  if (words.length < 2) return words[0] ?? '';
  return t('health.and', { first: words.slice(0, -1).join(', '), last: words.at(-1) ?? '' });
}

/** The setting's name ("Panel “Support”: support roles"). */
export function settingText(t: Translate, problem: ConfigProblem): string {
  const { scope, field, name } = problem.setting;
  return t(`health.setting.${scope}.${field}` as MessageKey, { name: name ?? '' });
}

/** Why it matters, and what to do. */
function whyText(t: Translate, problem: ConfigProblem): string {
  const { kind, setting } = problem;
  if (kind === 'role-missing') return t(`health.why.role-missing.${setting.scope === 'panel' ? setting.field : setting.scope}` as MessageKey);
  if (kind === 'channel-missing' || kind === 'channel-cannot-post') return t(`health.why.${kind}.${setting.field}` as MessageKey);
  return t(`health.why.${kind}` as MessageKey);
}

function ProblemItem({ problem }: { problem: ConfigProblem }) {
  const t = useT();
  const setting = settingText(t, problem);
  const what = t(`health.what.${problem.kind}` as MessageKey, {
    id: problem.target?.id ?? '',
    channel: targetText(t, problem),
    missing: permissionsText(t, problem.missing),
  });
  return (
    <li className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <p className="font-semibold break-words text-surface-900 dark:text-surface-50">{setting}</p>
        <p className="mt-0.5 break-words text-surface-800 dark:text-surface-200">{what}</p>
        <p className="mt-0.5 break-words text-surface-600 dark:text-surface-400">{whyText(t, problem)}</p>
      </div>
      <Link to={problem.href} aria-label={t('health.fixLabel', { setting })} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'self-start' })}>
        {t('health.fix')}
      </Link>
    </li>
  );
}

/**
 * The configuration check's problems, opened from the Panel Menu's summary (./summary.tsx): each with
 * its setting, what is wrong, why it matters and a link that opens the setting.
 */
export function HealthList({ problems }: { problems: ConfigProblem[] }) {
  const t = useT();
  return (
    <div>
      <p className="opacity-90">{t('health.intro')}</p>
      <ul className="mt-3 divide-y divide-amber-200 rounded-md bg-white/70 px-3 py-3 dark:divide-amber-900 dark:bg-surface-950/60">
        {problems.map((problem) => (
          <ProblemItem key={`${problem.kind}:${problem.setting.scope}:${problem.setting.id ?? ''}:${problem.setting.field}:${problem.target?.id ?? ''}`} problem={problem} />
        ))}
      </ul>
    </div>
  );
}

/** The list with its messages loaded (the Panel Menu's lazy chunk: React.lazy). */
export function load(): Promise<{ default: typeof HealthList }> {
  return catalog.ready().then(() => ({ default: HealthList }));
}
