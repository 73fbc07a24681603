/**
 * The marketing pages prerendered for the server (built for Node as dist/prerender.mjs; see
 * @tickety/shared/prerender). Eager imports: the server renders without lazy chunks.
 */
import { pageRenderer } from '@tickety/shared/prerender';
import ClipboardPage from './pages/ClipboardPage';
import HomeDisplayPage from './pages/HomeDisplayPage';
import HomePage from './pages/HomePage';
import InvitePage from './pages/InvitePage';
import PolicyPage from './pages/PolicyPage';
import PremiumDisplayPage from './pages/PremiumDisplayPage';
import PremiumPage from './pages/PremiumPage';
import StatusPage from './pages/StatusPage';
import SupportPage from './pages/SupportPage';
import { routeTable } from './route-table';

export const renderPage = pageRenderer(routeTable, {
  home: HomePage,
  premium: PremiumPage,
  policy: PolicyPage,
  support: SupportPage,
  invite: InvitePage,
  status: StatusPage,
  homeDisplay: HomeDisplayPage,
  premiumDisplay: PremiumDisplayPage,
  clipboard: ClipboardPage,
});
