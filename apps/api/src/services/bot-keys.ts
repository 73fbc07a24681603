import { randomBytes, timingSafeEqual } from 'node:crypto';
import { BOT_KEY_PATTERN } from '@tickety/api-contract';
import type { Db } from '../db/driver';
import { type Clock, iso, toMs } from '../lib/clock';
import { sha256Hex } from '../lib/crypto';
import { ApiHttpError } from '../lib/errors';

/** A bot that proved its key. */
export interface BotCaller {
  botId: string;
  keyId: string;
  keyName: string;
  expiresAt: string | null;
}

/** The key in `Authorization: Bearer <key>`, or null. */
export function bearerKey(req: { headers: { authorization?: string | undefined } }): string | null {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer ([\x21-\x7e]{1,300})$/i.exec(header.trim()) : null;
  return match?.[1] ?? null;
}

/** The key's id, or null when the text is not shaped like a key (`tk_bot_<id>_<secret>`). */
export function botKeyId(key: string): string | null {
  return BOT_KEY_PATTERN.exec(key)?.[1] ?? null;
}

/** A new key: a random public id and a 256-bit secret. */
function newBotKey(): { id: string; key: string } {
  const id = randomBytes(8).toString('hex');
  return { id, key: `tk_bot_${id}_${randomBytes(32).toString('base64url')}` };
}

/**
 * Bot keys (table bot_keys): only the sha256 of a key is stored. The configured key (BOT_API_KEY, or
 * the demo bot's) is written at start; a bot rotates its key itself, and the old one keeps working
 * for the overlap window so the bot can switch without a gap. Only the newest key rotates, and a
 * rotation ends every other key of the bot, so a stolen key is gone once the owner rotates.
 *
 * Which servers a bot serves (table bot_servers): the product's own application (`primaryBotId`,
 * DISCORD_CLIENT_ID) every server not given to another application; another application only the
 * servers listed for it.
 */
export class BotKeys {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly primaryBotId: string,
  ) {}

  /** The servers among `guildIds` that `botId` does not serve (empty: it serves them all). Read fresh. */
  async notServed(botId: string, guildIds: readonly string[]): Promise<string[]> {
    const unique = [...new Set(guildIds)];
    if (unique.length === 0) return [];
    const { rows } = await this.db.query<{ guild_id: string; bot_id: string }>('SELECT guild_id, bot_id FROM bot_servers WHERE guild_id = ANY($1::text[])', [unique]);
    const owner = new Map(rows.map((r) => [r.guild_id, r.bot_id]));
    return unique.filter((g) => (owner.get(g) ?? this.primaryBotId) !== botId);
  }

  /** The bot that serves `guildId` (its listed application, else the product's own). Read fresh. */
  async botOf(guildId: string): Promise<string> {
    const { rows } = await this.db.query<{ bot_id: string }>('SELECT bot_id FROM bot_servers WHERE guild_id = $1', [guildId]);
    return rows[0]?.bot_id ?? this.primaryBotId;
  }

  /** Throws BOT_SERVER_FORBIDDEN (403 1020) unless `botId` serves every one of `guildIds`. */
  async assertServes(botId: string, guildIds: readonly string[]): Promise<void> {
    const refused = await this.notServed(botId, guildIds);
    if (refused.length > 0) {
      throw new ApiHttpError('BOT_SERVER_FORBIDDEN', {
        message: `This bot does not serve ${refused.length === 1 ? `server ${refused[0]}` : `servers ${refused.slice(0, 5).join(', ')}${refused.length > 5 ? ' and more' : ''}`}: nothing was read or stored.`,
      });
    }
  }

  /** Stores the configured key for `botId` (idempotent: the same key again changes nothing). */
  async ensure(key: string, botId: string, name: string): Promise<void> {
    const id = botKeyId(key);
    if (!id) throw new Error('The configured bot key is not shaped like a bot key.');
    await this.db.query(
      `INSERT INTO bot_keys (id, bot_id, name, key_hash, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO NOTHING`,
      [id, botId, name, sha256Hex(key), iso(this.clock())],
    );
  }

  /** The bot behind `key`, or null when it is unknown, wrong or expired. Decided on the stored row, fresh. */
  async authenticate(key: string): Promise<BotCaller | null> {
    const id = botKeyId(key);
    if (!id) return null;
    const { rows } = await this.db.query<{ bot_id: string; name: string; key_hash: string; expires_at: unknown }>(
      'SELECT bot_id, name, key_hash, expires_at FROM bot_keys WHERE id = $1',
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    const given = Buffer.from(sha256Hex(key), 'hex');
    const stored = Buffer.from(row.key_hash, 'hex');
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
    const expires = toMs(row.expires_at);
    const now = this.clock();
    if (expires !== null && expires <= now) return null;
    // When it was last used, at most once a minute per key (no write per request).
    await this.db.query('UPDATE bot_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)', [
      id,
      iso(now),
      iso(now - 60_000),
    ]);
    return { botId: row.bot_id, keyId: id, keyName: row.name, expiresAt: expires === null ? null : iso(expires) };
  }

  /**
   * A new key for the caller's bot. Only a key without an end may rotate (BOT_KEY_SUPERSEDED
   * otherwise): every other key of the bot, the caller's included, ends after `overlapSeconds` (an
   * earlier end stays). One transaction, the caller's row locked, so two rotations with the same key
   * make one new key.
   */
  async rotate(caller: BotCaller, overlapSeconds: number): Promise<{ key: string; keyId: string; previousKeyExpiresAt: string }> {
    const next = newBotKey();
    const now = this.clock();
    const ends = iso(now + overlapSeconds * 1000);
    return this.db.transaction(async (tx) => {
      const { rows: own } = await tx.query<{ expires_at: unknown }>('SELECT expires_at FROM bot_keys WHERE id = $1 FOR UPDATE', [caller.keyId]);
      if (!own[0] || own[0].expires_at !== null) throw new ApiHttpError('BOT_KEY_SUPERSEDED');
      await tx.query(
        `UPDATE bot_keys SET expires_at = CASE WHEN expires_at IS NULL OR expires_at > $2 THEN $2::timestamptz ELSE expires_at END
         WHERE bot_id = $1`,
        [caller.botId, ends],
      );
      await tx.query('INSERT INTO bot_keys (id, bot_id, name, key_hash, created_at) VALUES ($1, $2, $3, $4, $5)', [
        next.id,
        caller.botId,
        `${caller.keyName.replace(/ \(rotated \d{4}-\d{2}-\d{2}\)$/, '')} (rotated ${iso(now).slice(0, 10)})`,
        sha256Hex(next.key),
        iso(now),
      ]);
      return { key: next.key, keyId: next.id, previousKeyExpiresAt: ends };
    });
  }
}
