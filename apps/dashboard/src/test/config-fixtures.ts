/** Server configurations, resources and posts as the API answers them, for the Panel Menu's tests. */
import { defaultAutoCloseRules, defaultFeedbackSettings, newPanel, type Panel, type PanelPost, type ServerConfig, type ServerResources } from '@tickety/api-contract';
import type { LiveConfig } from '../features/configs/api';

export const ROLE_SUPPORT = '112233445566778899';
export const ROLE_MODS = '223344556677889900';
const ROLE_BOT = '334455667788990011';
export const CATEGORY_SUPPORT = '445566778899001122';
export const CHANNEL_TRANSCRIPTS = '667788990011223344';
export const CHANNEL_PANELS = '778899001122334455';
export const CHANNEL_LOCKED = '889900112233445566';
const EMOJI_COIN = '990011223344556677';

export function panel(id: string, name: string, over: Partial<Panel> = {}): Panel {
  return { ...newPanel(id, { name, title: name, description: 'Press the button to open a ticket.', button: 'Open a ticket' }), ...over };
}

export function config(over: Partial<ServerConfig> = {}): ServerConfig {
  return {
    schemaVersion: 1,
    general: {
      defaultCategoryId: CATEGORY_SUPPORT,
      transcriptChannelId: CHANNEL_TRANSCRIPTS,
      logChannelId: null,
      ticketNameScheme: 'ticket-{count}',
      maxOpenTicketsPerUser: 2,
      claiming: true,
      twoStepClose: false,
      language: 'en',
    },
    access: [],
    panels: [
      panel('support', 'Support', {
        form: [{ id: 'q1', label: 'What happened?', style: 'paragraph', required: true, minLength: 0, maxLength: 1000, placeholder: 'Tell us' }],
        supportRoleIds: [ROLE_SUPPORT],
      }),
    ],
    multiPanels: [],
    labels: [],
    autoClose: defaultAutoCloseRules(),
    tags: [],
    blocklist: [],
    feedback: defaultFeedbackSettings(),
    ...over,
  };
}

export function live(over: Partial<LiveConfig> = {}): LiveConfig {
  return {
    version: 4,
    config: config(),
    savedAt: '2026-03-01T12:00:00.000Z',
    savedBy: { id: '1000000000000000002', name: 'Ben', avatarUrl: null },
    premium: false,
    panelLimit: 3,
    tagLimit: 50,
    blocklistLimit: 100,
    ...over,
  };
}

export function resources(): ServerResources {
  return {
    channels: [
      { id: CATEGORY_SUPPORT, name: 'Support', kind: 'category', parentId: null, position: 0, botCanPost: true, botMissing: [] },
      { id: CHANNEL_PANELS, name: 'open-a-ticket', kind: 'text', parentId: CATEGORY_SUPPORT, position: 1, botCanPost: true, botMissing: [] },
      { id: CHANNEL_TRANSCRIPTS, name: 'transcripts', kind: 'text', parentId: null, position: 2, botCanPost: true, botMissing: [] },
      { id: CHANNEL_LOCKED, name: 'announcements', kind: 'text', parentId: null, position: 3, botCanPost: false, botMissing: ['SEND_MESSAGES', 'EMBED_LINKS'] },
    ],
    roles: [
      { id: ROLE_SUPPORT, name: 'Support Team', color: 0x2ecc71, position: 3, managed: false },
      { id: ROLE_MODS, name: 'Moderators', color: 0xe67e22, position: 2, managed: false },
      { id: ROLE_BOT, name: 'Tickety', color: 0, position: 4, managed: true },
    ],
    emojis: [{ id: EMOJI_COIN, name: 'coin', animated: false }],
    fetchedAt: '2026-03-01T12:00:00.000Z',
  };
}

export function posts(list: PanelPost[] = []): { posts: PanelPost[] } {
  return { posts: list };
}
