import { describe, expect, it } from 'vitest';
import { pkceChallenge, sha256Hex } from '../../src/lib/crypto';
import { OAuthStates, STATE_TTL_MS } from '../../src/services/oauth-states';
import { MINUTE, SECOND } from '../helpers/clock';
import { databases } from '../helpers/db';
import { useServiceDeps } from './helpers';

describe.each(databases())('OAuthStates on $name', (database) => {
  const deps = useServiceDeps(database);
  const states = () => new OAuthStates(deps.db, deps.box, deps.clock);

  it('starts a sign-in: a random state and a 64-character PKCE verifier, stored hashed and encrypted', async () => {
    const { state, codeVerifier } = await states().start('https://tickety.test');
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codeVerifier).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(pkceChallenge(codeVerifier)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { rows } = await deps.db.query<Record<string, unknown>>('SELECT * FROM oauth_states WHERE state_hash = $1', [sha256Hex(state)]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toMatch(new RegExp(`${state}|${codeVerifier}`));
  });

  it('consumes a state once', async () => {
    const { state, codeVerifier } = await states().start('https://tickety.test');
    expect(await states().consume(state)).toEqual({ codeVerifier, returnOrigin: 'https://tickety.test' });
    expect(await states().consume(state)).toBeNull();
    expect(await states().consume('never-issued')).toBeNull();
  });

  it('refuses (and removes) a state past its lifetime', async () => {
    const { state } = await states().start('https://tickety.test');
    deps.clock.advance(STATE_TTL_MS);
    expect(await states().consume(state)).toBeNull();
    const fresh = await states().start('https://tickety.test');
    deps.clock.advance(STATE_TTL_MS - SECOND);
    expect(await states().consume(fresh.state)).not.toBeNull();
  });

  it('clears expired states when a sign-in starts', async () => {
    await deps.db.query('DELETE FROM oauth_states');
    for (let i = 0; i < 3; i++) await states().start('https://tickety.test');
    deps.clock.advance(STATE_TTL_MS + MINUTE);
    const kept = await states().start('https://tickety.test');
    const { rows } = await deps.db.query<{ state_hash: string }>('SELECT state_hash FROM oauth_states');
    expect(rows.map((r) => r.state_hash)).toEqual([sha256Hex(kept.state)]);
  });
});
