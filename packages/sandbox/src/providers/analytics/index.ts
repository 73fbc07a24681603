/**
 * A stand-in for ProfitWell's browser snippet (Paddle's ProfitWell Metrics / Retain), on loopback,
 * for the offline demo and tests. Production never mounts it.
 *
 *   const control = createAnalyticsSandboxControl();
 *   await app.register(analyticsSandbox, { prefix: '/sandbox/analytics', token: 'demo_analytics', control });
 *   control.starts(); // [{ token, user_id, user_email, at, page }]
 *
 * Routes (under the prefix): `GET /profitwell.js?auth=<token>` (the script: `profitwell('start',
 * { user_id | user_email })`, the page's queued calls replayed, each start POSTed back), `POST /starts`,
 * `GET /` (the recent starts, for a demo user to see it worked).
 */
export { type AnalyticsSandboxControl, type AnalyticsStart, createAnalyticsSandboxControl } from './control';
export { type AnalyticsSandboxOptions, analyticsSandbox } from './plugin';
export { profitwellJs } from './profitwell-js';
