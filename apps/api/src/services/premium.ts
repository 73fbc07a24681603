/**
 * What premium is, in one place. A subscription grants premium while its status does (until the end
 * of a period already paid for, when the provider gave one) and during the grace period after a
 * failed payment: SQL function `grants_premium` (migration 013). A server has premium when one of
 * the premium slots of such a subscription covers it (a slot within the subscription's `slots`).
 * Every query that asks (the server's panel limit and support hours, Statistics, the session's `sub`)
 * is built from these fragments.
 */

/** SQL: whether subscription `s` grants premium at `at` (an SQL expression of a timestamptz). */
export const subscriptionGrants = (s: string, at: string) => `grants_premium(${s}.premium, ${s}.access_ends_at, ${s}.grace_until, ${at})`;

/** SQL: whether the server `guild` (an SQL expression) has premium at `at`. */
export const serverHasPremium = (guild: string, at: string) =>
  `EXISTS (SELECT 1 FROM premium_slots ps JOIN subscriptions ps_s ON ps_s.id = ps.subscription_id
           WHERE ps.guild_id = ${guild} AND ps.slot <= ps_s.slots AND ${subscriptionGrants('ps_s', at)})`;

/** SQL: the servers subscription `s` covers with premium at `at` (an array, each once, possibly empty). */
export const coveredServers = (s: string, at: string) =>
  `CASE WHEN ${subscriptionGrants(s, at)} THEN ARRAY(SELECT DISTINCT cs.guild_id FROM premium_slots cs
     WHERE cs.subscription_id = ${s}.id AND cs.slot <= ${s}.slots AND cs.guild_id IS NOT NULL ORDER BY 1) ELSE '{}'::text[] END`;

/** Days of premium kept after a failed payment while the provider retries (BILLING_GRACE_DAYS). */
export const DEFAULT_GRACE_DAYS = 3;
