import { formatDate, Link, type Locale, useLocale, useRouteData, useRuntimeConfig } from '@tickety/shared';
import { Alert, Button, cx, EmptyState, Skeleton } from '@tickety/ui';
import FileText from 'lucide-react/icons/file-text';
import { useContext, useEffect, useMemo, useRef, useState } from 'react';
import { Container } from '../../components/layout';
import { href } from '../../lib/hrefs';
import { Message, useT } from '../../lib/i18n';
import { loadedPolicy, loadPolicy, PolicySourcesContext, type PolicyText } from './documents';
import { DocumentMarkdown } from './markdown';
import { fillPlaceholders, isPolicyId, POLICIES, POLICY_IDS, type PolicyId, parseFrontMatter, tableOfContents } from './policies';

type Failed = { id: PolicyId; locale: Locale; failed: true };

/**
 * The document `id` in the active language: given up front (the prerender) or loaded already (the
 * routes module preloads the one it opens on), else loaded now. While another language's version is
 * on its way, the one already shown stays; null while the first one loads.
 */
function useDocument(id: PolicyId | null, locale: Locale, attempt: number): PolicyText | Failed | null {
  const given = useContext(PolicySourcesContext);
  const source = id ? given[locale]?.[id] : undefined;
  const givenText = useMemo(() => (id && source !== undefined ? { id, locale, source } : null), [id, locale, source]);
  const ready = id && !givenText ? loadedPolicy(id, locale) : undefined;
  const [state, setState] = useState<PolicyText | Failed | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load after a failure
  useEffect(() => {
    if (!id || givenText || ready) return;
    let live = true;
    // A retry shows the skeleton again rather than the old failure.
    setState((s) => (s && 'failed' in s ? null : s));
    loadPolicy(id, locale).then(
      (text) => live && setState(text),
      () => live && setState({ id, locale, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [id, locale, givenText, ready, attempt]);
  const current = givenText ?? ready ?? (state && state.id === id && state.locale === locale ? state : null);
  // The text last shown, kept on screen while the same document arrives in another language.
  const shown = useRef<PolicyText | null>(null);
  useEffect(() => {
    if (current && !('failed' in current)) shown.current = current;
  });
  if (current) return current;
  return shown.current && shown.current.id === id ? shown.current : null;
}

function OtherPolicies({ current }: { current: PolicyId | null }) {
  const t = useT();
  return (
    <nav aria-label={t('policy.nav')} className="mt-16 border-t border-surface-200 pt-8 dark:border-surface-800">
      <p className="text-sm font-semibold text-surface-900 dark:text-surface-50">{t('policy.others')}</p>
      <ul className="mt-3 flex flex-wrap gap-2">
        {POLICY_IDS.filter((id) => id !== current).map((id) => (
          <li key={id}>
            <Link
              to={href(POLICIES[id].path)}
              className="inline-flex rounded-full bg-surface-100 px-3 py-1.5 text-sm font-medium text-surface-700 transition hover:bg-surface-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:bg-surface-800 dark:text-surface-200 dark:hover:bg-surface-700"
            >
              {t(POLICIES[id].title)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function DocumentSkeleton() {
  const t = useT();
  return (
    <div role="status" aria-busy="true" aria-label={t('policy.loading')} className="max-w-[72ch] space-y-3">
      {['w-full', 'w-11/12', 'w-4/5', 'w-full', 'w-2/3'].map((width, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Skeleton key={i} className={cx('h-4', width)} />
      ))}
      <Skeleton className="mt-8 h-6 w-1/3" />
      {['w-full', 'w-5/6', 'w-3/4'].map((width, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Skeleton key={i} className={cx('h-4', width)} />
      ))}
    </div>
  );
}

/** One of the five policy documents; which one comes from the route's `data.policy`. */
export default function PolicyPage() {
  const { policy } = useRouteData();
  const config = useRuntimeConfig();
  const t = useT();
  const locale = useLocale();
  const id = isPolicyId(policy) ? policy : null;
  const [attempt, setAttempt] = useState(0);
  const loaded = useDocument(id, locale, attempt);

  const doc = useMemo(() => {
    if (!loaded || 'failed' in loaded) return null;
    const { updated, body } = parseFrontMatter(loaded.source);
    const filled = fillPlaceholders(body, { product: config.productName, urls: { supportUrl: config.supportUrl, docsUrl: config.docsUrl } });
    return { updated, body: filled, toc: tableOfContents(filled) };
  }, [loaded, config.productName, config.supportUrl, config.docsUrl]);

  if (!id) {
    return (
      <Container className="py-16">
        <EmptyState icon={<FileText aria-hidden="true" className="size-6" />} title={t('policy.notFound.title')} description={t('policy.notFound.text')} />
        <OtherPolicies current={null} />
      </Container>
    );
  }

  const title = t(POLICIES[id].title);
  return (
    <Container className="py-12 sm:py-16">
      <div className="border-b border-surface-200 pb-6 dark:border-surface-800">
        <p className="text-sm font-semibold text-primary-700 dark:text-primary-400">{config.productName}</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-surface-900 sm:text-4xl dark:text-surface-50">{title}</h1>
        {doc?.updated ? (
          <p className="mt-2 text-sm text-surface-600 dark:text-surface-400">
            <Message k="policy.updated" values={{ date: formatDate(doc.updated) }} components={{ time: <time dateTime={doc.updated} /> }} />
          </p>
        ) : null}
      </div>

      <div className={cx('mt-8 grid gap-10', doc && doc.toc.length > 1 && 'lg:grid-cols-[15rem_minmax(0,1fr)]')}>
        {doc && doc.toc.length > 1 ? (
          <nav aria-label={t('policy.toc')} className="lg:sticky lg:top-24 lg:self-start">
            <p className="text-xs font-semibold tracking-wide text-surface-500 uppercase dark:text-surface-400">{t('policy.toc')}</p>
            <ol className="mt-3 space-y-1 border-l border-surface-200 text-sm dark:border-surface-800">
              {doc.toc.map((entry) => (
                <li key={entry.id}>
                  <a
                    href={`#${entry.id}`}
                    className="-ml-px block border-l-2 border-transparent py-1 pl-3 text-surface-600 transition hover:border-primary-500 hover:text-surface-900 focus-visible:outline-2 focus-visible:outline-primary-500 dark:text-surface-400 dark:hover:text-surface-100"
                  >
                    {entry.text}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        ) : null}

        <article aria-label={title} className="prose-tickety min-w-0">
          {doc ? (
            <DocumentMarkdown source={doc.body} toc={doc.toc} />
          ) : loaded ? (
            <Alert
              tone="warning"
              title={t('policy.error.title')}
              actions={
                <Button variant="secondary" size="sm" onClick={() => setAttempt((n) => n + 1)}>
                  {t('common.tryAgain')}
                </Button>
              }
            >
              {t('policy.error.text')}
            </Alert>
          ) : (
            <DocumentSkeleton />
          )}
        </article>
      </div>
      <OtherPolicies current={id} />
    </Container>
  );
}
