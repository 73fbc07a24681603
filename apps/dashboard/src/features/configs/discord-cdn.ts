/**
 * Pictures on Discord's CDN the dashboard shows itself (custom emojis in the pickers and the preview).
 * The API's resources name an emoji by id only, so the address is built here: Discord's CDN for
 * Discord, the stand-in's `/cdn` beside its origin in demo mode (where `discordOrigin` is the sandbox).
 */
export function cdnBase(discordOrigin: string): string {
  return /^https:\/\/(?:[a-z]+\.)?discord\.com$/.test(discordOrigin) ? 'https://cdn.discordapp.com' : `${discordOrigin.replace(/\/$/, '')}/cdn`;
}

export function emojiUrl(discordOrigin: string, id: string, animated: boolean, size = 48): string {
  return `${cdnBase(discordOrigin)}/emojis/${encodeURIComponent(id)}.${animated ? 'gif' : 'png'}?size=${size}`;
}
