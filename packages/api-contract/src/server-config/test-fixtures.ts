/** Test data only (not exported by the package): a realistic server configuration and helpers. */
import type { z } from '../zod-setup';
import { newPanel, type Panel } from './panel';
import type { ServerConfig } from './schemas';

export const ROLE_SUPPORT = '112233445566778899';
export const ROLE_MODS = '223344556677889900';
export const ROLE_OBSERVERS = '334455667788990011';
export const CATEGORY_SUPPORT = '445566778899001122';
export const CATEGORY_BILLING = '556677889900112233';
export const CHANNEL_TRANSCRIPTS = '667788990011223344';
export const CHANNEL_LOGS = '778899001122334455';
export const EMOJI_TICKETY = '889900112233445566';

/** A panel with every optional part left at its "not set" value. */
export function minimalPanel(id: string, name = `Panel ${id}`): Panel {
  const panel = newPanel(id, { name, title: name, description: '', button: 'Open a ticket' });
  return { ...panel, embed: { ...panel.embed, colour: null }, button: { ...panel.button, emoji: null } };
}

/** What a German gaming community with premium might have set up. */
export function realisticConfig(): ServerConfig {
  const general: Panel = {
    id: 'general-help',
    name: 'General help',
    embed: {
      title: '🎫 Support',
      description:
        'Need help? Press the button below and our team will answer **as soon as possible**.\n\n' +
        '> Please read <#123456789012345678> first.\n- Be patient\n- Be nice\n\n日本語のサポートもあります。',
      colour: 0x5865f2,
      imageUrl: 'https://cdn.example.com/banners/support.png',
      thumbnailUrl: 'https://cdn.example.com/logo.png',
      footer: 'Tickety • support replies within 24 hours',
    },
    button: { label: 'Open a ticket', emoji: '🎫', style: 'primary' },
    categoryId: CATEGORY_SUPPORT,
    namingScheme: 'help-{count}-{username}',
    supportRoleIds: [ROLE_SUPPORT, ROLE_MODS],
    additionalRoleIds: [ROLE_OBSERVERS],
    pingRoleIds: [ROLE_SUPPORT],
    welcomeMessage: {
      title: 'Thanks for reaching out, 👋',
      description: 'Describe your problem; a member of <@&112233445566778899> will be with you shortly.',
      colour: 0x57f287,
      imageUrl: null,
      thumbnailUrl: null,
      footer: '',
    },
    formTitle: 'Tell us about your problem',
    form: [
      { id: 'topic', label: 'What is it about?', style: 'short', required: true, minLength: 3, maxLength: 100, placeholder: 'e.g. rank sync, bans, events' },
      { id: 'details', label: 'Details', style: 'paragraph', required: true, minLength: 20, maxLength: 4000, placeholder: 'What happened, and when?' },
      { id: 'ign', label: 'In-game name (optional)', style: 'short', required: false, minLength: 0, maxLength: 32, placeholder: '' },
    ],
    perUserLimit: 2,
    perPanelLimit: null,
    claiming: true,
    twoStepClose: null,
    transcriptChannelId: null,
    supportHours: {
      timeZone: 'Europe/Berlin',
      hours: {
        monday: [{ from: '09:00', to: '12:30' }, { from: '13:30', to: '18:00' }],
        tuesday: [{ from: '09:00', to: '18:00' }],
        wednesday: [{ from: '09:00', to: '18:00' }],
        thursday: [{ from: '09:00', to: '18:00' }],
        friday: [{ from: '09:00', to: '16:00' }, { from: '22:00', to: '24:00' }],
        saturday: [{ from: '00:00', to: '02:00' }],
        sunday: [],
      },
      outOfHoursMessage: 'Our team is offline right now 🌙 — we will answer on the next working day.',
    },
    autoClose: { memberSilentHours: 24, staffSilentHours: 72, onOpenerLeave: true, warningHours: 6, warningMessage: '' },
    feedback: true,
  };
  const billing: Panel = {
    ...structuredClone(general),
    id: 'billing',
    name: 'Billing & premium',
    embed: { title: 'Billing', description: 'Questions about payments or premium?', colour: 0xfee75c, imageUrl: null, thumbnailUrl: null, footer: '' },
    button: { label: 'Billing', emoji: { id: EMOJI_TICKETY, name: 'tickety_coin', animated: false }, style: 'success' },
    categoryId: CATEGORY_BILLING,
    namingScheme: 'billing-{userid}',
    supportRoleIds: [ROLE_MODS],
    additionalRoleIds: [],
    pingRoleIds: [],
    welcomeMessage: null,
    formTitle: null,
    form: [{ id: 'order', label: 'Order or transaction id', style: 'short', required: true, minLength: 6, maxLength: 64, placeholder: 'txn_…' }],
    perUserLimit: 1,
    perPanelLimit: 50,
    claiming: null,
    twoStepClose: true,
    transcriptChannelId: CHANNEL_TRANSCRIPTS,
    supportHours: null,
    autoClose: null,
    feedback: null,
  };
  const report: Panel = {
    ...minimalPanel('report', 'Report a player'),
    button: { label: '', emoji: '🚨', style: 'danger' },
  };
  return {
    schemaVersion: 1,
    general: {
      defaultCategoryId: CATEGORY_SUPPORT,
      transcriptChannelId: CHANNEL_TRANSCRIPTS,
      logChannelId: CHANNEL_LOGS,
      ticketNameScheme: 'ticket-{count}',
      maxOpenTicketsPerUser: 3,
      claiming: true,
      twoStepClose: false,
      language: 'de',
    },
    access: [
      { roleId: ROLE_MODS, areas: { panels: 'write', statistics: 'read', logs: 'read' } },
      { roleId: ROLE_OBSERVERS, areas: { statistics: 'read' } },
    ],
    panels: [general, billing, report],
    multiPanels: [
      {
        id: 'all',
        name: 'Everything',
        embed: { title: 'How can we help?', description: 'Pick a topic.', colour: null, imageUrl: null, thumbnailUrl: null, footer: '' },
        mode: 'select',
        panelIds: ['general-help', 'billing', 'report'],
        selectPlaceholder: 'Choose a topic…',
      },
      {
        id: 'quick',
        name: 'Quick buttons',
        embed: { title: '', description: 'Open a ticket:', colour: 0xed4245, imageUrl: null, thumbnailUrl: null, footer: '' },
        mode: 'buttons',
        panelIds: ['report', 'general-help'],
        selectPlaceholder: null,
      },
    ],
    labels: [
      { id: 'bug', name: 'Bug', colour: 0xed4245 },
      { id: 'vip', name: 'VIP', colour: 0xfee75c },
    ],
    autoClose: { memberSilentHours: 48, staffSilentHours: null, onOpenerLeave: true, warningHours: 12, warningMessage: '{user}, this ticket closes {time} unless you answer.' },
    tags: [
      { id: 'refund', name: 'refund', content: 'Refunds take **3 to 5 days**.', embed: null, keywords: ['money', 'erstattung'] },
      {
        id: 'rules',
        name: 'rules',
        content: '',
        embed: { title: 'Server rules', description: 'Read <#123456789012345678>.', colour: 0x5865f2, imageUrl: null, thumbnailUrl: null, footer: '' },
        keywords: [],
      },
    ],
    blocklist: [
      { kind: 'user', id: '998877665544332211', reason: 'Spam tickets', addedBy: '887766554433221100', addedAt: '2026-11-01T10:00:00Z', expiresAt: null },
      { kind: 'role', id: '998877665544332200', reason: 'Muted members', addedBy: '887766554433221100', addedAt: '2026-11-02T10:00:00Z', expiresAt: '2027-01-01T00:00:00Z' },
    ],
    feedback: { enabled: true, question: 'Wie zufrieden warst du mit unserer Hilfe?' },
  };
}

/** A string of exactly `count` code points made of `unit` (itself one or more code points), padded with 'a'. */
export function textOf(unit: string, count: number): string {
  const unitLength = [...unit].length;
  return unit.repeat(Math.floor(count / unitLength)) + 'a'.repeat(count % unitLength);
}

/** The units the boundary tests count with: ASCII, an astral emoji, a 5-code-point ZWJ family, CJK. */
export const COUNTING_UNITS = ['a', '😀', '👩‍👩‍👧', '漢'] as const;

/** A schema's issues as `{ path: 'a.0.b', message }`, or [] when it parses. */
export function issuesOf(schema: z.ZodType, value: unknown): { path: string; message: string; code: string }[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message, code: issue.code }));
}

/** A deep copy of `value` with `path` ('a.0.b') set to `next`. */
export function withValue<T>(value: T, path: string, next: unknown): T {
  const copy = structuredClone(value);
  const keys = path.split('.');
  let target = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys.at(-1)!] = next;
  return copy;
}
