/**
 * The billing remote's public page prerendered for the server (built for Node as dist/prerender.mjs;
 * see @tickety/shared/prerender). Its other pages need a signed-in user and are never prerendered.
 */
import { pageRenderer } from '@tickety/shared/prerender';
import PremiumPurchasePage from './features/premium-purchase/premium-purchase';
import de from './locales/de.json';
import en from './locales/en.json';
import { routeTable } from './route-table';

export const renderPage = pageRenderer(routeTable, { premiumPurchase: PremiumPurchasePage }, { namespace: 'billing', messages: { en, de } });
