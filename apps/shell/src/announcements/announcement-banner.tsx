import {
  type AnnouncementInline,
  type AnnouncementSeverity,
  announcementPlainText,
  type PublicAnnouncement,
  parseAnnouncementText,
} from '@tickety/api-contract';
import { Link } from '@tickety/shared';
import { Info, OctagonAlert, Wrench, X } from 'lucide-react';
import { Fragment, type ReactNode, useEffect, useRef, useState } from 'react';
import { useT } from '../lib/i18n';

const SEVERITY_CLASSES: Record<AnnouncementSeverity, string> = {
  info: 'border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-50',
  maintenance: 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50',
  critical: 'border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50',
};
const SEVERITY_ICONS: Record<AnnouncementSeverity, ReactNode> = {
  info: <Info className="size-5 text-sky-700 dark:text-sky-300" aria-hidden="true" />,
  maintenance: <Wrench className="size-5 text-amber-700 dark:text-amber-300" aria-hidden="true" />,
  critical: <OctagonAlert className="size-5 text-red-700 dark:text-red-300" aria-hidden="true" />,
};
const LINK_CLASSES = 'font-medium underline underline-offset-2 hover:opacity-80 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current';

/**
 * A notice's parsed text as React elements: every piece of the text is a text node (React escapes
 * it), so markup typed into a notice (`<img onerror>`, `<script>`) shows as those characters. Links
 * are only those parseAnnouncementText kept (https, http, mailto, this site's paths): this site's
 * through the router, other sites' in a new tab without the opener.
 */
function Inline({ nodes }: { nodes: AnnouncementInline[] }) {
  return (
    <>
      {nodes.map((node, i) => {
        const key = `${node.type}-${i}`;
        switch (node.type) {
          case 'text':
            return <Fragment key={key}>{node.text}</Fragment>;
          case 'break':
            return <br key={key} />;
          case 'strong':
            return (
              <strong key={key} className="font-semibold">
                <Inline nodes={node.children} />
              </strong>
            );
          case 'em':
            return (
              <em key={key}>
                <Inline nodes={node.children} />
              </em>
            );
          case 'code':
            return (
              <code key={key} className="rounded bg-black/5 px-1 font-mono text-[0.9em] dark:bg-white/10">
                {node.text}
              </code>
            );
          case 'link':
            return node.external ? (
              <a key={key} href={node.href} target="_blank" rel="noopener noreferrer" className={LINK_CLASSES}>
                <Inline nodes={node.children} />
              </a>
            ) : (
              <Link key={key} to={node.href} className={LINK_CLASSES}>
                <Inline nodes={node.children} />
              </Link>
            );
          default:
            return null;
        }
      })}
    </>
  );
}

/** A notice's text, rendered (see Inline). */
export function AnnouncementText({ text }: { text: string }) {
  return (
    <div className="space-y-1.5 break-words">
      {parseAnnouncementText(text).map((block, i) =>
        block.type === 'paragraph' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the blocks of one text, in order
          <p key={i}>
            <Inline nodes={block.children} />
          </p>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the blocks of one text, in order
          <ul key={i} className="list-disc space-y-0.5 pl-5">
            {block.items.map((item, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the items of one list, in order
              <li key={j}>
                <Inline nodes={item} />
              </li>
            ))}
          </ul>
        ),
      )}
    </div>
  );
}

export interface AnnouncementBannerProps {
  notices: PublicAnnouncement[];
  onDismiss: (notice: PublicAnnouncement) => void;
}

/**
 * The active notices, over the page at the bottom of the window (fixed: nothing on the page moves
 * when it appears, so a prerendered page keeps its layout shift at 0), sliding in with a transform
 * (none with reduced motion); the page gets as much room at its end, so nothing stays under them. Each is dismissible; focus that was on a dismissed notice moves to the
 * next one, or to the page's content when none is left.
 */
export default function AnnouncementBanner({ notices, onDismiss }: AnnouncementBannerProps) {
  const t = useT();
  const [shown, setShown] = useState(false);
  const region = useRef<HTMLElement>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setShown(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  // Room at the end of the page as tall as the notices, so its last lines and buttons can be scrolled
  // above them (space added below everything: nothing on the page moves).
  useEffect(() => {
    const el = region.current;
    if (!el) return;
    const body = document.body;
    const before = body.style.paddingBottom;
    const fit = () => {
      body.style.paddingBottom = `${Math.ceil(el.getBoundingClientRect().height)}px`;
    };
    fit();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(fit);
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      body.style.paddingBottom = before;
    };
  }, []);

  const dismiss = (notice: PublicAnnouncement, index: number) => {
    const focused = region.current?.contains(document.activeElement) ?? false;
    onDismiss(notice);
    if (!focused) return;
    // After React has removed it: the next notice's button, else the page.
    setTimeout(() => {
      const buttons = region.current?.querySelectorAll<HTMLButtonElement>('button[data-dismiss]');
      const next = buttons?.[Math.min(index, buttons.length - 1)];
      if (next) next.focus();
      else document.getElementById('content')?.focus({ preventScroll: true });
    }, 0);
  };

  return (
    <section
      ref={region}
      aria-label={t('announcements.region')}
      className={`pointer-events-none fixed inset-x-0 bottom-0 z-[80] flex justify-center p-3 transition-[opacity,transform] duration-300 ease-out motion-reduce:transition-none sm:p-4 ${shown ? 'translate-y-0 opacity-100' : 'translate-y-4 opacity-0'}`}
    >
      <ul className="pointer-events-auto flex max-h-[50vh] w-full max-w-3xl flex-col gap-2 overflow-y-auto">
        {notices.map((notice, index) => (
          <li key={`${notice.id}:${notice.revision}`} className={`flex items-start gap-3 rounded-xl border p-3 text-sm shadow-lg sm:p-4 ${SEVERITY_CLASSES[notice.severity]}`}>
            <span className="mt-0.5 shrink-0">{SEVERITY_ICONS[notice.severity]}</span>
            <div className="min-w-0 flex-1">
              <p className="text-xs font-semibold tracking-wide uppercase opacity-80">{t(`announcements.severity.${notice.severity}`)}</p>
              <div className="mt-0.5 leading-relaxed">
                <AnnouncementText text={notice.text} />
              </div>
            </div>
            <button
              type="button"
              data-dismiss=""
              onClick={() => dismiss(notice, index)}
              aria-label={t('announcements.dismiss', { summary: excerpt(notice.text) })}
              className="-m-1 shrink-0 rounded-md p-1.5 opacity-80 hover:bg-black/5 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current dark:hover:bg-white/10"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The start of a notice's words (the dismiss button's name). */
function excerpt(text: string): string {
  const plain = announcementPlainText(text);
  return plain.length > 60 ? `${plain.slice(0, 59).trimEnd()}…` : plain;
}
