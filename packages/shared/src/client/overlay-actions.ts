import { login } from '../auth/auth-slice';
import { getDispatch } from '../config';
import { cancelShown, homeShown, resendAfterLogin, retryShown, selectServerShown } from './request';

/**
 * The error overlay's buttons (the shell's overlay host calls these). Each acts on the error shown
 * and does nothing when that button is not enabled for it.
 */
export const overlayActions = {
  retry: retryShown,
  home: homeShown,
  cancel: cancelShown,
  selectServer: selectServerShown,
  /** 'Login with discord': opens the popup; once signed in, re-sends the requests waiting for login. */
  async login(): Promise<void> {
    const result = await getDispatch()(login());
    if (login.fulfilled.match(result) && result.payload) resendAfterLogin();
  },
};
