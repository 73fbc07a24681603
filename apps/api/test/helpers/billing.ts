/** A subscription row for tests, and the servers its premium slots cover (slot 1, 2, … in order). */
export interface TestSubscription {
  id: string;
  userId: string;
  provider: 'paddle' | 'fastspring' | 'discord' | 'chargebee';
  providerId: string;
  status: string;
  premium: boolean;
  servers: string[];
}

/** Stores subscriptions with their slots as billing does (migration 013's tables). */
export async function insertSubscriptions(db: { query: (sql: string, params?: unknown[]) => Promise<unknown> }, subs: TestSubscription[]): Promise<void> {
  for (const s of subs) {
    await db.query(
      `INSERT INTO subscriptions (id, user_id, provider, provider_subscription_id, status, premium, slots) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [s.id, s.userId, s.provider, s.providerId, s.status, s.premium, Math.max(1, s.servers.length)],
    );
    for (const [i, guild] of s.servers.entries()) {
      await db.query('INSERT INTO premium_slots (subscription_id, slot, guild_id, assigned_at) VALUES ($1, $2, $3, now())', [s.id, i + 1, guild]);
    }
  }
}
