import type { Db } from '../db/driver';
import { type Clock, iso, toMs } from '../lib/clock';
import { randomToken, type SecretBox, SecretUndecryptableError, sha256Hex } from '../lib/crypto';

/** How long a sign-in may take between /api/auth/login and /api/auth/callback. */
export const STATE_TTL_MS = 10 * 60 * 1000;

interface StartedSignIn {
  state: string;
  codeVerifier: string;
}

interface ConsumedState {
  codeVerifier: string;
  returnOrigin: string;
}

/**
 * One-time OAuth states. The state travels in the authorize URL and (signed) in a short-lived
 * cookie; the server keeps its sha256 with the PKCE verifier (encrypted). Consuming deletes the row,
 * so a state works once.
 */
export class OAuthStates {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  async start(returnOrigin: string): Promise<StartedSignIn> {
    const now = this.clock();
    const state = randomToken(32);
    const codeVerifier = randomToken(48); // 64 characters (PKCE needs 43 to 128)
    const hash = sha256Hex(state);
    await this.db.query('DELETE FROM oauth_states WHERE expires_at < $1::timestamptz', [iso(now)]);
    await this.db.query(
      `INSERT INTO oauth_states (state_hash, code_verifier, return_origin, created_at, expires_at)
       VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz)`,
      [hash, this.box.encrypt(codeVerifier, hash), returnOrigin, iso(now), iso(now + STATE_TTL_MS)],
    );
    return { state, codeVerifier };
  }

  /**
   * Deletes the state and returns what it held; null when unknown, already used or expired, or when
   * its PKCE verifier no longer decrypts (sealed with a key that is not configured any more).
   */
  async consume(state: string): Promise<ConsumedState | null> {
    const hash = sha256Hex(state);
    const { rows } = await this.db.query<{ code_verifier: string; return_origin: string; expires_at: unknown }>(
      'DELETE FROM oauth_states WHERE state_hash = $1 RETURNING code_verifier, return_origin, expires_at',
      [hash],
    );
    const row = rows[0];
    if (!row) return null;
    if ((toMs(row.expires_at) ?? 0) <= this.clock()) return null;
    let codeVerifier: string;
    try {
      codeVerifier = this.box.decrypt(row.code_verifier, hash);
    } catch (error) {
      if (error instanceof SecretUndecryptableError) return null;
      throw error;
    }
    return { codeVerifier, returnOrigin: row.return_origin };
  }
}
