/**
 * A stand-in for ProfitWell's browser snippet (Paddle's ProfitWell Metrics / Retain), on loopback, for
 * the offline demo and tests. Production never mounts it.
 * Routes, options and behaviour: docs/sandbox.md#analytics.
 */
export { type AnalyticsSandboxControl, type AnalyticsStart, createAnalyticsSandboxControl } from './control';
export { type AnalyticsSandboxOptions, analyticsSandbox } from './plugin';
export { profitwellJs } from './profitwell-js';
