import { announcementPlainText, type PublicAnnouncement } from '@tickety/api-contract';
import { AnnouncementBody, AnnouncementText, SEVERITY_CLASSES } from '@tickety/shared/announcement-text';
import { X as CloseIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useT } from '../lib/i18n';

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
    const reserveRoom = () => {
      body.style.paddingBottom = `${Math.ceil(el.getBoundingClientRect().height)}px`;
    };
    reserveRoom();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(reserveRoom);
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
            <AnnouncementBody severity={notice.severity} label={t(`announcements.severity.${notice.severity}`)}>
              <AnnouncementText text={notice.text} />
            </AnnouncementBody>
            <button
              type="button"
              data-dismiss=""
              onClick={() => dismiss(notice, index)}
              aria-label={t('announcements.dismiss', { summary: excerpt(notice.text) })}
              className="-m-1 shrink-0 rounded-md p-1.5 opacity-80 hover:bg-black/5 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current dark:hover:bg-white/10"
            >
              <CloseIcon className="size-4" aria-hidden="true" />
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
