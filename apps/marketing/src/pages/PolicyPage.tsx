import FileText from 'lucide-react/icons/file-text';
import { formatDate, Link, useRouteData, useRuntimeConfig } from '@tickety/shared';
import { Alert, Button, cx, EmptyState, Skeleton } from '@tickety/ui';
import { useEffect, useMemo, useState } from 'react';
import { Container } from '../components/layout';
import { DocumentMarkdown } from '../components/markdown';
import { fillPlaceholders, isPolicyId, POLICIES, type PolicyId, parseFrontMatter, tableOfContents } from '../lib/policy';

const cache = new Map<PolicyId, Promise<string>>();

function loadPolicy(id: PolicyId): Promise<string> {
  let p = cache.get(id);
  if (!p) {
    p = POLICIES[id].load().then((m) => m.default);
    // A failed chunk load may succeed on the next attempt: do not keep the failure.
    p.catch(() => cache.delete(id));
    cache.set(id, p);
  }
  return p;
}

type Loaded = { id: PolicyId; source: string } | { id: PolicyId; failed: true };

function useDocument(id: PolicyId | null, attempt: number): Loaded | null {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load after a failure
  useEffect(() => {
    if (!id) return;
    let live = true;
    // A retry shows the skeleton again rather than the old failure.
    setLoaded((l) => (l && 'failed' in l ? null : l));
    loadPolicy(id).then(
      (source) => live && setLoaded({ id, source }),
      () => live && setLoaded({ id, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [id, attempt]);
  return loaded && loaded.id === id ? loaded : null;
}

function OtherPolicies({ current }: { current: PolicyId | null }) {
  return (
    <nav aria-label="Policies" className="mt-16 border-t border-surface-200 pt-8 dark:border-surface-800">
      <p className="text-sm font-semibold text-surface-900 dark:text-surface-50">Other documents</p>
      <ul className="mt-3 flex flex-wrap gap-2">
        {(Object.keys(POLICIES) as PolicyId[])
          .filter((id) => id !== current)
          .map((id) => (
            <li key={id}>
              <Link
                to={`/${id}`}
                className="inline-flex rounded-full bg-surface-100 px-3 py-1.5 text-sm font-medium text-surface-700 transition hover:bg-surface-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:bg-surface-800 dark:text-surface-200 dark:hover:bg-surface-700"
              >
                {POLICIES[id].title}
              </Link>
            </li>
          ))}
      </ul>
    </nav>
  );
}

function DocumentSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading the document" className="max-w-[72ch] space-y-3">
      {['w-full', 'w-11/12', 'w-4/5', 'w-full', 'w-2/3'].map((w, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Skeleton key={i} className={cx('h-4', w)} />
      ))}
      <Skeleton className="mt-8 h-6 w-1/3" />
      {['w-full', 'w-5/6', 'w-3/4'].map((w, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Skeleton key={i} className={cx('h-4', w)} />
      ))}
    </div>
  );
}

/** One of the five policy documents; which one comes from the route's `data.policy`. */
export default function PolicyPage() {
  const { policy } = useRouteData();
  const config = useRuntimeConfig();
  const id = isPolicyId(policy) ? policy : null;
  const [attempt, setAttempt] = useState(0);
  const loaded = useDocument(id, attempt);

  const doc = useMemo(() => {
    if (!loaded || !('source' in loaded)) return null;
    const { updated, body } = parseFrontMatter(loaded.source);
    const filled = fillPlaceholders(body, { product: config.productName, urls: { supportUrl: config.supportUrl, docsUrl: config.docsUrl } });
    return { updated, body: filled, toc: tableOfContents(filled) };
  }, [loaded, config.productName, config.supportUrl, config.docsUrl]);

  if (!id) {
    return (
      <Container className="py-16">
        <EmptyState icon={<FileText aria-hidden="true" className="size-6" />} title="This document does not exist" description="Pick one of our policies below." />
        <OtherPolicies current={null} />
      </Container>
    );
  }

  const title = POLICIES[id].title;
  return (
    <Container className="py-12 sm:py-16">
      <div className="border-b border-surface-200 pb-6 dark:border-surface-800">
        <p className="text-sm font-semibold text-primary-700 dark:text-primary-400">{config.productName}</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-surface-900 sm:text-4xl dark:text-surface-50">{title}</h1>
        {doc?.updated ? (
          <p className="mt-2 text-sm text-surface-600 dark:text-surface-400">
            Last updated <time dateTime={doc.updated}>{formatDate(doc.updated)}</time>
          </p>
        ) : null}
      </div>

      <div className={cx('mt-8 grid gap-10', doc && doc.toc.length > 1 && 'lg:grid-cols-[15rem_minmax(0,1fr)]')}>
        {doc && doc.toc.length > 1 ? (
          <nav aria-label="On this page" className="lg:sticky lg:top-24 lg:self-start">
            <p className="text-xs font-semibold tracking-wide text-surface-500 uppercase dark:text-surface-400">On this page</p>
            <ol className="mt-3 space-y-1 border-l border-surface-200 text-sm dark:border-surface-800">
              {doc.toc.map((e) => (
                <li key={e.id}>
                  <a
                    href={`#${e.id}`}
                    className="-ml-px block border-l-2 border-transparent py-1 pl-3 text-surface-600 transition hover:border-primary-500 hover:text-surface-900 focus-visible:outline-2 focus-visible:outline-primary-500 dark:text-surface-400 dark:hover:text-surface-100"
                  >
                    {e.text}
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
              title="This document could not be loaded"
              actions={
                <Button variant="secondary" size="sm" onClick={() => setAttempt((n) => n + 1)}>
                  Try again
                </Button>
              }
            >
              Check your connection and try again.
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
