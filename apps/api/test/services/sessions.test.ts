import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKey, SecretBox, sha256Hex, tokenKeyId } from '../../src/lib/crypto';
import { type SessionLog, SessionStore, TOUCH_INTERVAL_MS } from '../../src/services/sessions';
import { DAY, HOUR, MINUTE, SECOND } from '../helpers/clock';
import { databases } from '../helpers/db';
import { insertUser, useServiceDeps } from './helpers';

const USER = '1000000000000000101';
const OTHER_USER = '1000000000000000102';
const tokens = { accessToken: 'access-1', refreshToken: 'refresh-1', expiresIn: 604800, scope: 'identify guilds' };

/** What the SecretBox before key ids wrote: `v1.<iv>.<tag>.<ciphertext>` (no key id). */
function sealV1(master: Buffer, plaintext: string, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(master, 'token-encryption'), iv);
  cipher.setAAD(Buffer.from(aad));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

function captureLog(): SessionLog & { entries: Array<{ obj: Record<string, unknown>; msg: string }> } {
  const entries: Array<{ obj: Record<string, unknown>; msg: string }> = [];
  return { entries, warn: (obj, msg) => entries.push({ obj, msg }) };
}

describe.each(databases())('SessionStore on $name', (database) => {
  const deps = useServiceDeps(database);
  const store = () => new SessionStore(deps.db, deps.box, deps.clock, 24 * HOUR, 7 * DAY);

  it('creates a session: a 256-bit token, only its hash stored, Discord tokens encrypted and bound to the session', async () => {
    await insertUser(deps.db, USER);
    const { token, session } = await store().create(deps.db, USER, tokens, 'Mozilla/5.0 '.repeat(50));
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { rows } = await deps.db.query<Record<string, unknown>>('SELECT * FROM sessions WHERE id = $1', [session.id]);
    const row = rows[0]!;
    expect(row.token_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toMatch(new RegExp(`${token}|access-1|refresh-1`));
    expect(String(row.user_agent)).toHaveLength(300);
    expect(deps.box.decrypt(String(row.discord_access_token), session.id)).toBe('access-1');
    expect(() => deps.box.decrypt(String(row.discord_access_token), 'another-session')).toThrow();
    expect(await store().tokens(session.id)).toEqual({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      expiresAt: deps.clock.now + 604800 * 1000,
      scope: 'identify guilds',
    });
  });

  it('resolves a live token only; malformed tokens never reach the database', async () => {
    const { token, session } = await store().create(deps.db, USER, tokens, undefined);
    expect(await store().resolve(token)).toMatchObject({ id: session.id, userId: USER });
    for (const bad of ['', 'short', `${token}x`, token.replace(/.$/, '!'), 'A'.repeat(43)]) expect(await store().resolve(bad)).toBeNull();
  });

  it('records activity at most once a minute, and expires after 24 h idle or 7 days', async () => {
    const { token, session } = await store().create(deps.db, USER, tokens, undefined);
    const lastSeen = async () => (await deps.db.query<{ t: unknown }>('SELECT last_seen_at AS t FROM sessions WHERE id = $1', [session.id])).rows[0]!.t;
    const created = await lastSeen();
    deps.clock.advance(TOUCH_INTERVAL_MS - SECOND);
    await store().resolve(token);
    expect(await lastSeen()).toEqual(created);
    deps.clock.advance(SECOND);
    expect((await store().resolve(token))?.lastSeenAt).toBe(deps.clock.now);
    expect(await lastSeen()).not.toEqual(created);

    deps.clock.advance(24 * HOUR);
    expect(await store().resolve(token)).toBeNull();

    const second = await store().create(deps.db, USER, tokens, undefined);
    const start = deps.clock.now;
    while (deps.clock.now + 23 * HOUR < start + 7 * DAY) {
      deps.clock.advance(23 * HOUR);
      expect(await store().resolve(second.token)).not.toBeNull();
    }
    deps.clock.set(start + 7 * DAY);
    expect(await store().resolve(second.token)).toBeNull();
  });

  it('revokes once: returns the tokens for revoking at Discord, wipes them, and the token stops working', async () => {
    const { token, session } = await store().create(deps.db, USER, tokens, undefined);
    expect(await store().revoke(session.id)).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(await store().revoke(session.id)).toBeNull();
    expect(await store().resolve(token)).toBeNull();
    expect(await store().tokens(session.id)).toBeNull();
    const { rows } = await deps.db.query<Record<string, unknown>>('SELECT revoked_at, discord_access_token, discord_refresh_token FROM sessions WHERE id = $1', [
      session.id,
    ]);
    expect(rows[0]!.revoked_at).not.toBeNull();
    expect(rows[0]!.discord_access_token).toBeNull();
    expect(rows[0]!.discord_refresh_token).toBeNull();
  });

  it('saves refreshed tokens on live sessions only', async () => {
    const live = await store().create(deps.db, USER, tokens, undefined);
    await store().saveTokens(live.session.id, { ...tokens, accessToken: 'access-2', refreshToken: 'refresh-2', expiresIn: 60 });
    expect(await store().tokens(live.session.id)).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2', expiresAt: deps.clock.now + 60_000 });
    const ended = await store().create(deps.db, USER, tokens, undefined);
    await store().revoke(ended.session.id);
    await store().saveTokens(ended.session.id, { ...tokens, accessToken: 'access-3' });
    expect(await store().tokens(ended.session.id)).toBeNull();
  });

  it('purges sessions that ended more than 30 days ago', async () => {
    await deps.db.query('DELETE FROM sessions');
    const old = await store().create(deps.db, USER, tokens, undefined);
    await store().revoke(old.session.id);
    const recent = await store().create(deps.db, USER, tokens, undefined);
    deps.clock.advance(31 * DAY);
    const live = await store().create(deps.db, USER, tokens, undefined);
    await store().purge();
    const { rows } = await deps.db.query<{ id: string }>('SELECT id FROM sessions');
    // `old` was revoked 31 days ago: gone. `recent` expired 24 days ago (7-day limit): kept for now.
    expect(rows.map((r) => r.id).sort()).toEqual([recent.session.id, live.session.id].sort());
    deps.clock.advance(7 * DAY);
    await store().purge();
    const after = await deps.db.query<{ id: string }>('SELECT id FROM sessions');
    expect(after.rows.map((r) => r.id)).toEqual([live.session.id]);
  });
  describe('Discord tokens that no longer decrypt (token encryption key changed or lost)', () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const storeWith = (box: SecretBox, log: SessionLog | null = null) => new SessionStore(deps.db, box, deps.clock, 24 * HOUR, 7 * DAY, 20, log);
    const columns = async (id: string) =>
      (
        await deps.db.query<{ revoked_at: unknown; discord_access_token: string | null; discord_refresh_token: string | null }>(
          'SELECT revoked_at, discord_access_token, discord_refresh_token FROM sessions WHERE id = $1',
          [id],
        )
      ).rows[0]!;

    it('tokens() answers null (an ended grant) and logs why without any secret', async () => {
      const { session } = await storeWith(new SecretBox(oldKey)).create(deps.db, USER, tokens, undefined);
      const log = captureLog();
      expect(await storeWith(new SecretBox(newKey), log).tokens(session.id)).toBeNull();
      expect(log.entries).toHaveLength(1);
      expect(log.entries[0]!.obj).toEqual({ sessionId: session.id, during: 'tokens', reason: 'unknown-key', keyId: tokenKeyId(oldKey) });
      const stored = await columns(session.id);
      const logged = JSON.stringify(log.entries);
      for (const secret of ['access-1', 'refresh-1', stored.discord_access_token!, oldKey.toString('base64'), newKey.toString('base64')]) {
        expect(logged).not.toContain(secret);
      }
      // A read does not change the row: the caller decides (the refresh route ends the session).
      expect(stored.revoked_at).toBeNull();
    });

    it('revoke() still ends the session, wipes the tokens and answers null (nothing to revoke at Discord)', async () => {
      const { token, session } = await storeWith(new SecretBox(oldKey)).create(deps.db, USER, tokens, undefined);
      const store = storeWith(new SecretBox(newKey));
      expect(await store.revoke(session.id)).toBeNull();
      expect(await store.resolve(token)).toBeNull();
      const row = await columns(session.id);
      expect(row.revoked_at).not.toBeNull();
      expect(row.discord_access_token).toBeNull();
      expect(row.discord_refresh_token).toBeNull();
    });

    it('a tampered or garbled stored value is an ended grant too, not an exception', async () => {
      const box = new SecretBox(oldKey);
      const { session } = await storeWith(box).create(deps.db, USER, tokens, undefined);
      await deps.db.query("UPDATE sessions SET discord_refresh_token = 'not-a-secret' WHERE id = $1", [session.id]);
      expect(await storeWith(box).tokens(session.id)).toBeNull();
      expect(await storeWith(box).revoke(session.id)).toBeNull();
      expect((await columns(session.id)).revoked_at).not.toBeNull();
    });

    it('with the old key among the previous keys, opens the tokens and seals them again with the current key', async () => {
      const { session } = await storeWith(new SecretBox(oldKey)).create(deps.db, USER, tokens, undefined);
      const before = await columns(session.id);
      expect(before.discord_access_token!.split('.').slice(0, 2)).toEqual(['v2', tokenKeyId(oldKey)]);
      const rotated = storeWith(new SecretBox(newKey, [oldKey]));
      expect(await rotated.tokens(session.id)).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
      const after = await columns(session.id);
      expect(after.discord_access_token!.split('.').slice(0, 2)).toEqual(['v2', tokenKeyId(newKey)]);
      expect(after.discord_refresh_token!.split('.').slice(0, 2)).toEqual(['v2', tokenKeyId(newKey)]);
      // Once sealed again, the old key can go.
      expect(await storeWith(new SecretBox(newKey)).tokens(session.id)).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    });

    it('reads v1 tokens (written before key ids) and seals them again as v2', async () => {
      const box = new SecretBox(oldKey);
      const { session } = await storeWith(box).create(deps.db, USER, tokens, undefined);
      await deps.db.query('UPDATE sessions SET discord_access_token = $2, discord_refresh_token = $3 WHERE id = $1', [
        session.id,
        sealV1(oldKey, 'access-v1', session.id),
        sealV1(oldKey, 'refresh-v1', session.id),
      ]);
      expect(await storeWith(box).tokens(session.id)).toMatchObject({ accessToken: 'access-v1', refreshToken: 'refresh-v1' });
      expect((await columns(session.id)).discord_access_token).toMatch(new RegExp(`^v2\\.${tokenKeyId(oldKey)}\\.`));
      expect(await storeWith(box).revoke(session.id)).toMatchObject({ accessToken: 'access-v1', refreshToken: 'refresh-v1' });
    });

    it('does not overwrite tokens a concurrent refresh saved meanwhile', async () => {
      const { session } = await storeWith(new SecretBox(oldKey)).create(deps.db, USER, tokens, undefined);
      const box = new SecretBox(newKey, [oldKey]);
      // A refresh saves new tokens between tokens()'s read and its re-seal.
      const racing: typeof deps.db = {
        ...deps.db,
        query: async (sql, params) => {
          if (/^UPDATE sessions SET discord_access_token = \$4/.test(sql)) {
            await storeWith(box).saveTokens(session.id, { ...tokens, accessToken: 'access-2', refreshToken: 'refresh-2' });
          }
          return deps.db.query(sql, params);
        },
      };
      const racer = new SessionStore(racing, box, deps.clock, 24 * HOUR, 7 * DAY);
      expect(await racer.tokens(session.id)).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
      expect(await storeWith(new SecretBox(newKey)).tokens(session.id)).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    });
  });

  describe('sessions per user (SESSIONS_PER_USER_MAX)', () => {
    const capped = (max: number) => new SessionStore(deps.db, deps.box, deps.clock, 24 * HOUR, 7 * DAY, max);
    const live = async (userId: string) =>
      (
        await deps.db.query<{ id: string }>('SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at, id', [userId])
      ).rows.map((r) => r.id);

    it('a sign-in beyond the cap revokes the oldest live sessions (tokens wiped); other users keep theirs', async () => {
      await deps.db.query('DELETE FROM sessions');
      await insertUser(deps.db, OTHER_USER);
      const other = await capped(3).create(deps.db, OTHER_USER, tokens, undefined);
      const created = [];
      for (let i = 0; i < 3; i++) {
        created.push(await capped(3).create(deps.db, USER, tokens, undefined));
        deps.clock.advance(MINUTE);
      }
      expect(await live(USER)).toEqual(created.map((c) => c.session.id));

      created.push(await capped(3).create(deps.db, USER, tokens, undefined));
      expect(await live(USER)).toEqual(created.slice(1).map((c) => c.session.id));
      expect(await capped(3).resolve(created[0]!.token)).toBeNull();
      for (const c of created.slice(1)) expect(await capped(3).resolve(c.token)).not.toBeNull();
      const { rows } = await deps.db.query<Record<string, unknown>>(
        'SELECT revoked_at, discord_access_token, discord_refresh_token FROM sessions WHERE id = $1',
        [created[0]!.session.id],
      );
      expect(rows[0]).toEqual({ revoked_at: expect.anything(), discord_access_token: null, discord_refresh_token: null });
      expect(await live(OTHER_USER)).toEqual([other.session.id]);

      // A lower cap: one sign-in ends all but the newest.
      deps.clock.advance(MINUTE);
      const single = await capped(1).create(deps.db, USER, tokens, undefined);
      expect(await live(USER)).toEqual([single.session.id]);
    });

    it('never revokes the new session, even when sessions share a timestamp; dead sessions do not count', async () => {
      await deps.db.query('DELETE FROM sessions');
      const idle = await capped(2).create(deps.db, USER, tokens, undefined);
      deps.clock.advance(25 * HOUR); // `idle` is past its 24 h idle limit: dead, not revoked
      const same = [];
      for (let i = 0; i < 4; i++) same.push(await capped(2).create(deps.db, USER, tokens, undefined)); // same instant
      const ids = await live(USER);
      expect(ids).toContain(same[3]!.session.id);
      expect(ids).toContain(idle.session.id); // left to purge(), not counted
      expect(ids.filter((id) => id !== idle.session.id)).toHaveLength(2);
    });

    it('works inside the sign-in transaction', async () => {
      await deps.db.query('DELETE FROM sessions');
      const first = await capped(1).create(deps.db, USER, tokens, undefined);
      deps.clock.advance(SECOND);
      const second = await deps.db.transaction((tx) => capped(1).create(tx, USER, tokens, undefined));
      expect(await live(USER)).toEqual([second.session.id]);
      expect(await capped(1).resolve(first.token)).toBeNull();
    });
  });

  describe('indexes (migration 002)', () => {
    it('index what purge() filters on and what the per-user cap reads', async () => {
      const { rows } = await deps.db.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'sessions' ORDER BY indexname`,
      );
      const defs = Object.fromEntries(rows.map((r) => [r.indexname, r.indexdef.replace(/\s+/g, ' ')]));
      expect(defs.sessions_revoked_idx).toMatch(/ON \S*sessions USING btree \(revoked_at\) WHERE \(revoked_at IS NOT NULL\)/);
      expect(defs.sessions_user_active_idx).toMatch(/ON \S*sessions USING btree \(user_id, created_at\) WHERE \(revoked_at IS NULL\)/);
      expect(defs.sessions_expires_idx).toMatch(/\(expires_at\)/);
    });

    it('purge() can use them instead of scanning the table', async () => {
      const plan = await deps.db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        const { rows } = await tx.query<Record<string, string>>(
          "EXPLAIN DELETE FROM sessions WHERE expires_at < '2026-01-01'::timestamptz OR revoked_at < '2026-01-01'::timestamptz",
        );
        return rows.map((r) => Object.values(r)[0]).join('\n');
      });
      expect(plan).toContain('sessions_revoked_idx');
      expect(plan).toContain('sessions_expires_idx');
      expect(plan).not.toMatch(/Seq Scan/);
    });
  });
});
