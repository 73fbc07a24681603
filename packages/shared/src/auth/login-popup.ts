import { OVERLAY } from '../constants';

/** How often the opener checks whether the user closed the popup. */
const CLOSED_POLL_MS = 500;
/** After the popup is seen closed, a message it posted just before closing may still be queued. */
const CLOSED_GRACE_MS = 300;
const POPUP_NAME = 'tickety-login';

/** `window.open` features for a popup of OVERLAY.popup's size, centred on the current window. */
export function popupFeatures(win: Window = window): string {
  const { width, height } = OVERLAY.popup;
  const left = Math.round(win.screenX + (win.outerWidth - width) / 2);
  const top = Math.round(win.screenY + (win.outerHeight - height) / 2);
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}

/**
 * What the callback page posts: `{ auth: true }` or `{ auth: false, error }`. Anything else (a
 * string 'true', an array, a primitive) is not an answer and is ignored.
 */
function readAnswer(data: unknown): boolean | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const auth = (data as { auth?: unknown }).auth;
  if (auth === true) return true;
  if (auth === false) return false;
  return null;
}

let inFlight: { popup: Window; done: Promise<boolean>; abandon: () => void } | null = null;

/**
 * Opens `<apiOrigin>/api/auth/login` in a centred 500x800 popup and waits for its answer: true only
 * for a `message` from that popup whose origin is exactly `apiOrigin` and whose data has
 * `auth === true`; false for `auth: false` or a popup closed without answering (other messages are
 * ignored). A blocked popup sends the whole window to the login URL (false: the page is being left);
 * a second call while a popup is open focuses it and shares its answer.
 */
export function openLoginPopup(apiOrigin: string, loginPath: string): Promise<boolean> {
  if (inFlight && !inFlight.popup.closed) {
    inFlight.popup.focus();
    return inFlight.done;
  }
  const url = apiOrigin + loginPath;
  const popup = window.open(url, POPUP_NAME, popupFeatures());
  if (!popup) {
    window.location.assign(url);
    return Promise.resolve(false);
  }

  let abandon: () => void = () => {};
  const done = new Promise<boolean>((resolve) => {
    let settled = false;
    let poll: ReturnType<typeof setInterval> | undefined;
    let grace: ReturnType<typeof setTimeout> | undefined;

    const finish = (ok: boolean): void => {
      if (settled) return;
      settled = true;
      window.removeEventListener('message', onMessage);
      clearInterval(poll);
      clearTimeout(grace);
      if (inFlight?.popup === popup) inFlight = null;
      if (!popup.closed) popup.close();
      resolve(ok);
    };

    function onMessage(event: MessageEvent): void {
      // Only the popup this call opened, at the API's exact origin: another window of the API's
      // origin (a second tab, a frame) cannot answer for it.
      if (event.origin !== apiOrigin || event.source !== popup) return;
      const answer = readAnswer(event.data);
      if (answer === null) return;
      finish(answer);
    }

    abandon = () => finish(false);
    window.addEventListener('message', onMessage);
    poll = setInterval(() => {
      if (popup.closed && grace === undefined) grace = setTimeout(() => finish(false), CLOSED_GRACE_MS);
    }, CLOSED_POLL_MS);
  });

  inFlight = { popup, done, abandon };
  return done;
}

/** Tests only: gives up on an open popup (its login resolves false) and forgets it. */
export function resetLoginPopup(): void {
  inFlight?.abandon();
  inFlight = null;
}
