/** Discord permission bits the invite may ask for, with why the bot needs each (for the invite page). */
export interface PermissionInfo {
  bit: number;
  name: string;
  why: string;
}

const NOT_NEEDED = 'Not used for tickets; you can untick it on Discord’s screen.';

const KNOWN: Record<number, Omit<PermissionInfo, 'bit'>> = {
  0: { name: 'Create Invite', why: 'Create an invite link when a ticket needs to bring someone back to the server.' },
  1: { name: 'Kick Members', why: NOT_NEEDED },
  2: { name: 'Ban Members', why: NOT_NEEDED },
  3: {
    name: 'Administrator',
    why: 'Every permission, overriding channel settings. The bot does not need it: you can untick it on Discord’s screen as long as the permissions below are granted.',
  },
  4: { name: 'Manage Channels', why: 'Create a private channel for each new ticket in the category you chose, and remove it once the ticket is closed.' },
  5: { name: 'Manage Server', why: 'Read server settings that ticket features depend on.' },
  6: { name: 'Add Reactions', why: 'React to messages, for example to ask for a rating when a ticket closes.' },
  7: { name: 'View Audit Log', why: 'Tell who changed a ticket channel outside the bot.' },
  8: { name: 'Priority Speaker', why: NOT_NEEDED },
  9: { name: 'Video', why: NOT_NEEDED },
  10: { name: 'View Channels', why: 'See the ticket category, the channels with your panels and the ticket channels it manages.' },
  11: { name: 'Send Messages', why: 'Post panels, welcome messages, reminders and close confirmations.' },
  12: { name: 'Send Text-to-Speech Messages', why: NOT_NEEDED },
  13: { name: 'Manage Messages', why: 'Pin the welcome message in each ticket and update the panels it has posted.' },
  14: { name: 'Embed Links', why: 'Show panels and ticket messages as rich embeds with titles, colours and images.' },
  15: { name: 'Attach Files', why: 'Attach a ticket’s transcript and files to its messages.' },
  16: { name: 'Read Message History', why: 'Read a ticket’s messages so its transcript is complete when it closes.' },
  17: { name: 'Mention Everyone', why: 'Ping the support roles you choose when a ticket opens, even if they are not mentionable.' },
  18: { name: 'Use External Emojis', why: 'Show custom emojis on panel buttons.' },
  19: { name: 'View Server Insights', why: NOT_NEEDED },
  20: { name: 'Connect', why: NOT_NEEDED },
  21: { name: 'Speak', why: NOT_NEEDED },
  22: { name: 'Mute Members', why: NOT_NEEDED },
  23: { name: 'Deafen Members', why: NOT_NEEDED },
  24: { name: 'Move Members', why: NOT_NEEDED },
  25: { name: 'Use Voice Activity', why: NOT_NEEDED },
  26: { name: 'Change Nickname', why: NOT_NEEDED },
  27: { name: 'Manage Nicknames', why: NOT_NEEDED },
  28: {
    name: 'Manage Roles',
    why: 'Set each ticket channel’s permissions so only the person who opened it, your support roles and the bot can see it.',
  },
  29: { name: 'Manage Webhooks', why: 'Send messages with a custom name and avatar.' },
  30: { name: 'Manage Expressions', why: NOT_NEEDED },
  31: { name: 'Use Application Commands', why: 'Use slash commands in channels where the bot works.' },
  32: { name: 'Request to Speak', why: NOT_NEEDED },
  33: { name: 'Manage Events', why: NOT_NEEDED },
  34: { name: 'Manage Threads', why: 'Archive and lock ticket threads for panels that use threads instead of channels.' },
  35: { name: 'Create Public Threads', why: 'Open public threads for panels configured that way.' },
  36: { name: 'Create Private Threads', why: 'Open private ticket threads for panels that use threads instead of channels.' },
  37: { name: 'Use External Stickers', why: NOT_NEEDED },
  38: { name: 'Send Messages in Threads', why: 'Reply inside ticket threads.' },
  39: { name: 'Use Activities', why: NOT_NEEDED },
  40: { name: 'Timeout Members', why: NOT_NEEDED },
  41: { name: 'View Creator Monetization Analytics', why: NOT_NEEDED },
  42: { name: 'Use Soundboard', why: NOT_NEEDED },
  43: { name: 'Create Expressions', why: NOT_NEEDED },
  44: { name: 'Create Events', why: NOT_NEEDED },
  45: { name: 'Use External Sounds', why: NOT_NEEDED },
  46: { name: 'Send Voice Messages', why: NOT_NEEDED },
  49: { name: 'Create Polls', why: NOT_NEEDED },
  50: { name: 'Use External Apps', why: NOT_NEEDED },
};

/** The permissions an authorise URL asks for (its `permissions` bit field), in bit order. */
export function requestedPermissions(inviteUrl: string): PermissionInfo[] {
  let raw: string | null = null;
  try {
    raw = new URL(inviteUrl).searchParams.get('permissions');
  } catch {
    return [];
  }
  if (!raw || !/^\d+$/.test(raw)) return [];
  const value = BigInt(raw);
  const out: PermissionInfo[] = [];
  for (let bit = 0; bit < 64; bit++) {
    if ((value >> BigInt(bit)) & 1n) {
      const known = KNOWN[bit];
      out.push({ bit, name: known?.name ?? `Permission ${bit}`, why: known?.why ?? 'A Discord permission the bot asks for.' });
    }
  }
  return out;
}

/** The OAuth scopes of an authorise URL. */
export function requestedScopes(inviteUrl: string): string[] {
  try {
    return (new URL(inviteUrl).searchParams.get('scope') ?? '').split(/[\s+]+/).filter(Boolean);
  } catch {
    return [];
  }
}

