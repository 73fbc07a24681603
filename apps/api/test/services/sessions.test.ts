import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/crypto';
import { SessionStore, TOUCH_INTERVAL_MS } from '../../src/services/sessions';
import { DAY, HOUR, SECOND } from '../helpers/clock';
import { databases } from '../helpers/db';
import { insertUser, useServiceDeps } from './helpers';

const USER = '1000000000000000101';
const tokens = { accessToken: 'access-1', refreshToken: 'refresh-1', expiresIn: 604800, scope: 'identify guilds' };

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
});
