/**
 * Links of the support cards. The billing page and the server dashboard are site paths (typed through
 * `href`); a transcript's viewer is the dashboard remote's page `/transcript/v2/:server/:fileid`, which
 * SITE_PATHS does not list yet, so its address is built here from that one pattern.
 */
import { href } from '../../lib/hrefs';

export const userBillingHref = (user: string) => href('/billing/:user', { user });
export const serverDashboardHref = (server: string) => href('/dashboard/:server', { server });
export const transcriptHref = (server: string, fileId: string) => `/transcript/v2/${encodeURIComponent(server)}/${encodeURIComponent(fileId)}`;
