import type { AuthenticatedMe } from '@tickety/api-contract';
import { describe, expect, it } from 'vitest';
import type { DataChange } from '../../src/db/driver';
import type { InvalidationBus } from '../../src/lib/invalidation-bus';
import { SessionCache, type UserState } from '../../src/lib/session-cache';
import type { Session } from '../../src/services/sessions';

/** A bus that records what was published and lets the test deliver another instance's news. */
function testBus(): InvalidationBus & { published: DataChange[]; deliver(change: DataChange): void } {
  const listeners: Array<(change: DataChange) => void> = [];
  const published: DataChange[] = [];
  return {
    published,
    publish: (change) => published.push(change),
    subscribe: (listener) => listeners.push(listener),
    close: async () => undefined,
    deliver: (change) => {
      for (const listener of listeners) listener(change);
    },
  };
}

const session = (id: string, userId: string): Session => ({ id, userId, createdAt: 0, lastSeenAt: 0, expiresAt: 1e12, staffSeenAt: null });
const state = (userId: string): UserState => ({
  me: { isAuthenticated: true, user: { id: userId, username: userId, globalName: null, avatar: null, avatarUrl: '' }, guilds: [], team: null, sub: null, guildsRefreshedAt: null } as AuthenticatedMe,
  refreshedAt: null,
  guilds: new Map(),
});

function setup(limits: Partial<{ ttlMs: number; maxSessions: number; maxUsers: number }> = {}) {
  let now = 1_000;
  const bus = testBus();
  const cache = new SessionCache({ ttlMs: 15_000, maxSessions: 100, maxUsers: 100, ...limits }, () => now, bus);
  return { cache, bus, advance: (ms: number) => (now += ms) };
}

describe('SessionCache', () => {
  it('keeps an entry for the TTL and not a millisecond longer', () => {
    const { cache, advance } = setup();
    cache.fillSession('h1', session('s1', 'u1'), cache.ticket());
    cache.fillUser('u1', state('u1'), cache.ticket());
    advance(14_999);
    expect(cache.session('h1')?.id).toBe('s1');
    expect(cache.user('u1')?.me.user.id).toBe('u1');
    advance(1);
    expect(cache.session('h1')).toBeNull();
    expect(cache.user('u1')).toBeNull();
  });

  it('drops one session, every session of a user, a user state or everything, and publishes its own changes', () => {
    const { cache, bus } = setup();
    cache.fillSession('h1', session('s1', 'u1'), cache.ticket());
    cache.fillSession('h2', session('s2', 'u1'), cache.ticket());
    cache.fillSession('h3', session('s3', 'u2'), cache.ticket());
    cache.fillUser('u1', state('u1'), cache.ticket());
    cache.invalidate({ kind: 'session', id: 's1' });
    expect([cache.session('h1'), cache.session('h2')?.id]).toEqual([null, 's2']);
    cache.invalidate({ kind: 'user-sessions', id: 'u1' });
    expect(cache.session('h2')).toBeNull();
    expect(cache.session('h3')?.id).toBe('s3');
    expect(cache.user('u1')).not.toBeNull();
    cache.invalidate({ kind: 'user', id: 'u1' });
    expect(cache.user('u1')).toBeNull();
    expect(bus.published).toEqual([
      { kind: 'session', id: 's1' },
      { kind: 'user-sessions', id: 'u1' },
      { kind: 'user', id: 'u1' },
    ]);
    // Another instance's news is applied, not published again.
    bus.deliver({ kind: 'all' });
    expect(cache.size).toEqual({ sessions: 0, users: 0, servers: 0 });
    expect(bus.published).toHaveLength(3);
  });

  it('never stores a read that began before an invalidation (it may hold the rows from before the change)', () => {
    const { cache, bus } = setup();
    const ticket = cache.ticket();
    bus.deliver({ kind: 'user', id: 'someone else' });
    cache.fillSession('h1', session('s1', 'u1'), ticket);
    cache.fillUser('u1', state('u1'), ticket);
    expect(cache.size).toEqual({ sessions: 0, users: 0, servers: 0 });
    cache.fillSession('h1', session('s1', 'u1'), cache.ticket());
    expect(cache.session('h1')?.id).toBe('s1');
  });

  it('holds at most its limits, the oldest entries going first, and nothing with a TTL of 0', () => {
    const { cache } = setup({ maxSessions: 2, maxUsers: 1 });
    for (const n of [1, 2, 3]) cache.fillSession(`h${n}`, session(`s${n}`, `u${n}`), cache.ticket());
    cache.fillUser('u1', state('u1'), cache.ticket());
    cache.fillUser('u2', state('u2'), cache.ticket());
    expect([cache.session('h1'), cache.session('h2')?.id, cache.session('h3')?.id]).toEqual([null, 's2', 's3']);
    expect([cache.user('u1'), cache.user('u2')?.me.user.id]).toEqual([null, 'u2']);
    // The evicted session left no index behind: dropping its user touches the others only.
    cache.invalidate({ kind: 'user-sessions', id: 'u1' });
    expect(cache.size.sessions).toBe(2);

    const off = setup({ ttlMs: 0 }).cache;
    off.fillSession('h1', session('s1', 'u1'), off.ticket());
    expect(off.session('h1')).toBeNull();
    expect(off.size.sessions).toBe(0);
  });
});
