import { loginButtonLabel, OVERLAY, type OverlayErrorView, overlayActions, useOverlayState } from '@tickety/shared';
import { t, useT } from '../lib/i18n';
import { Backdrop, ErrorPanel, type ErrorPanelAction } from './error-panel';

/** The docs/behaviour.md#request-overlay-and-error-catalogue buttons, in order, for the error shown (labelled in the active language). */
export function actionsFor(error: OverlayErrorView): ErrorPanelAction[] {
  const actions: ErrorPanelAction[] = [];
  if (error.kind === 'login') actions.push({ label: loginButtonLabel(), onClick: () => void overlayActions.login(), primary: true });
  if (error.buttons.retry) actions.push({ label: t('actions.retry'), onClick: overlayActions.retry, primary: error.kind !== 'login' });
  if (error.buttons.home) actions.push({ label: t('actions.home'), onClick: overlayActions.home });
  if (error.buttons.selectServer) actions.push({ label: t('actions.selectServer'), onClick: overlayActions.selectServer });
  if (error.buttons.cancel) actions.push({ label: t('actions.cancel'), onClick: overlayActions.cancel });
  return actions;
}

/**
 * The one overlay host (the shell owns it): the loading overlay while a request has been pending
 * for OVERLAY.loadingDelayMs, and the error overlay of the failed request shown by the request client.
 */
export function OverlayHost() {
  const { loading, error } = useOverlayState();
  // Re-renders on a change of language: the buttons (actionsFor) and the text are labelled when shown.
  useT();
  if (error) {
    return (
      <Backdrop>
        <ErrorPanel
          key={`${error.kind}-${error.attempt}-${error.message}`}
          title={error.title}
          message={error.message}
          detail={error.detail}
          actions={actionsFor(error)}
          onEscape={error.buttons.cancel ? overlayActions.cancel : undefined}
        />
      </Backdrop>
    );
  }
  if (loading) {
    return (
      <div className="fixed inset-0 z-[90] flex cursor-progress items-center justify-center" style={{ backgroundColor: `${OVERLAY.colors.backdrop}66` }}>
        <div role="status" aria-live="polite" className="flex items-center gap-3 rounded-xl px-5 py-3 text-sm font-medium text-white shadow-xl" style={{ backgroundColor: OVERLAY.colors.backdrop }}>
          <span aria-hidden="true" className="size-5 animate-spin rounded-full border-2 border-r-transparent" style={{ borderColor: OVERLAY.colors.accent, borderRightColor: 'transparent' }} />
          {t('overlay.loading')}
        </div>
      </div>
    );
  }
  return null;
}
