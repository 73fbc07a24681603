import { OVERLAY } from '@tickety/shared';
import { useEffect, useRef } from 'react';

export interface ErrorPanelAction {
  label: string;
  onClick: () => void;
  primary?: boolean;
}

/**
 * The error overlay's panel (docs/behaviour.md#request-overlay-and-error-catalogue): a title, the message, the '<code> - <http status>' line and
 * the buttons enabled for this error. Colours #35B8E0 (accent) on #171E29 (docs/behaviour.md#look-and-titles). Used by the
 * overlay host for failed requests and by a remote's routes when the remote cannot be loaded.
 */
export function ErrorPanel({ title, message, detail, actions, onEscape }: { title: string; message: string; detail?: string | null; actions: ErrorPanelAction[]; onEscape?: () => void }) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    first.current?.focus();
  }, []);
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="overlay-title"
      aria-describedby="overlay-message"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && onEscape) onEscape();
      }}
      className="w-full max-w-md rounded-2xl border-2 p-6 text-white shadow-2xl"
      style={{ backgroundColor: OVERLAY.colors.backdrop, borderColor: OVERLAY.colors.accent }}
    >
      <h2 id="overlay-title" className="text-xl font-bold" style={{ color: OVERLAY.colors.accent }}>
        {title}
      </h2>
      <p id="overlay-message" className="mt-3 text-sm leading-relaxed text-slate-200">
        {message}
      </p>
      {detail ? <p className="mt-2 font-mono text-xs text-slate-400">{detail}</p> : null}
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        {actions.map((action, index) => (
          <button
            key={action.label}
            ref={index === 0 ? first : undefined}
            type="button"
            onClick={action.onClick}
            className={
              action.primary
                ? 'rounded-lg px-4 py-2 text-sm font-semibold text-[#171E29] transition hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white'
                : 'rounded-lg border border-slate-500 px-4 py-2 text-sm font-semibold text-slate-100 transition hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white'
            }
            style={action.primary ? { backgroundColor: OVERLAY.colors.accent } : undefined}
          >
            {action.label}
          </button>
        ))}
      </div>
    </div>
  );
}

/** The dimmed full-screen backdrop the panel sits on. */
export function Backdrop({ children }: { children?: React.ReactNode }) {
  return (
    <div className="fixed inset-0 z-[100] flex items-center justify-center p-4" style={{ backgroundColor: `${OVERLAY.colors.backdrop}cc` }}>
      {children}
    </div>
  );
}
