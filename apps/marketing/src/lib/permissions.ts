/** Discord permission bits the invite may ask for, with why the bot needs each (for the invite page). */
export interface PermissionInfo {
  bit: number;
  name: string;
  why: string;
}

const KNOWN: Record<number, Omit<PermissionInfo, 'bit'>> = {
  0: { name: 'Create Invite', why: 'Create an invite link when a ticket needs to bring someone back to the server.' },
  1: { name: 'Kick Members', why: 'Not needed for tickets.' },
  2: { name: 'Ban Members', why: 'Not needed for tickets.' },
  3: {
    name: 'Administrator',
    why: 'Every permission, overriding channel settings. The bot does not need it: you can untick it on Discord’s screen as long as the permissions below are granted.',
  },
  4: { name: 'Manage Channels', why: 'Create a private channel for each new ticket in the category you chose, and remove it once the ticket is closed.' },
  5: { name: 'Manage Server', why: 'Read server settings that ticket features depend on.' },
  6: { name: 'Add Reactions', why: 'React to messages, for example to ask for a rating when a ticket closes.' },
  7: { name: 'View Audit Log', why: 'Tell who changed a ticket channel outside the bot.' },
  10: { name: 'View Channels', why: 'See the ticket category, the channels with your panels and the ticket channels it manages.' },
  11: { name: 'Send Messages', why: 'Post panels, welcome messages, reminders and close confirmations.' },
  13: { name: 'Manage Messages', why: 'Pin the welcome message in each ticket and update the panels it has posted.' },
  14: { name: 'Embed Links', why: 'Show panels and ticket messages as rich embeds with titles, colours and images.' },
  15: { name: 'Attach Files', why: 'Attach a ticket’s transcript and files to its messages.' },
  16: { name: 'Read Message History', why: 'Read a ticket’s messages so its transcript is complete when it closes.' },
  17: { name: 'Mention Everyone', why: 'Ping the support roles you choose when a ticket opens, even if they are not mentionable.' },
  18: { name: 'Use External Emojis', why: 'Show custom emojis on panel buttons.' },
  28: {
    name: 'Manage Roles',
    why: 'Set each ticket channel’s permissions so only the person who opened it, your support roles and the bot can see it.',
  },
  29: { name: 'Manage Webhooks', why: 'Send messages with a custom name and avatar.' },
  34: { name: 'Manage Threads', why: 'Archive and lock ticket threads for panels that use threads instead of channels.' },
  35: { name: 'Create Public Threads', why: 'Open public threads for panels configured that way.' },
  36: { name: 'Create Private Threads', why: 'Open private ticket threads for panels that use threads instead of channels.' },
  38: { name: 'Send Messages in Threads', why: 'Reply inside ticket threads.' },
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

/** A Discord id (snowflake): 17 to 20 digits. */
export function isSnowflake(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^\d{17,20}$/.test(value);
}
