import type { RuntimeConfig } from '../types';

/**
 * The bot's authorise URL (config.inviteUrl, built by the API from the Discord client id), for one
 * server when `guildId` is given: Discord then preselects it (`guild_id` + `disable_guild_select`).
 */
export function botInviteUrl(config: Pick<RuntimeConfig, 'inviteUrl'>, guildId?: string): string {
  const url = new URL(config.inviteUrl);
  if (guildId) {
    url.searchParams.set('guild_id', guildId);
    url.searchParams.set('disable_guild_select', 'true');
  }
  return url.toString();
}
