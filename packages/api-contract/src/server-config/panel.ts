/** Panels (the message with the button that opens a ticket) and multi-panels (one message, several panels). */
import { z } from '../zod-setup';
import { Snowflake } from '../auth';
import { AutoCloseRules } from './automation';
import { EmbedConfig, PanelButton } from './embed';
import { discordText, forEachDuplicate, formatCount, roleIdList, ShortId } from './fields';
import { FormQuestions, FormTitle } from './form';
import {
  ACTION_ROW_BUTTONS_MAX,
  CHANNEL_NAME_MAX,
  MESSAGE_ACTION_ROWS_MAX,
  SELECT_OPTIONS_MAX,
  SELECT_PLACEHOLDER_MAX,
} from './limits';
import { NamingScheme } from './naming-scheme';
import { SupportHours } from './support-hours';

/** Most roles in each role list of a panel. */
export const PANEL_ROLES_MAX = 25;
/** A user's open tickets: the per-user limit is 1 to 10. */
export const OPEN_TICKETS_PER_USER_MAX = 10;
/** A panel's open tickets at once: 1 to 500 (Discord's channel limit of a server). */
export const OPEN_TICKETS_PER_PANEL_MAX = 500;

const limit = (max: number, what: string) =>
  z
    .int({ error: `The ${what} must be a whole number.` })
    .min(1, `The ${what} must be at least 1.`)
    .max(max, `The ${what} can be at most ${formatCount(max)}.`);

/** Open tickets one user may have at once (1 to 10). */
export const PerUserTicketLimit = limit(OPEN_TICKETS_PER_USER_MAX, 'limit per user');

/**
 * One panel. Where a field is null the server's general setting applies (category, naming scheme,
 * per-user limit, claiming, two-step close, transcript channel).
 */
export const Panel = z.object({
  id: ShortId,
  /** What the dashboard calls it (and the option label in a multi-panel's select menu). */
  name: discordText(CHANNEL_NAME_MAX, { required: true }),
  /** The embed of the posted message. */
  embed: EmbedConfig,
  button: PanelButton,
  /** The category new tickets go in (a Discord category channel). */
  categoryId: Snowflake.nullable(),
  namingScheme: NamingScheme.nullable(),
  /** Roles that handle the tickets (see and answer, may claim and close). */
  supportRoleIds: roleIdList(PANEL_ROLES_MAX),
  /** Further roles given access to the ticket channel. */
  additionalRoleIds: roleIdList(PANEL_ROLES_MAX),
  /** Roles mentioned when a ticket opens. */
  pingRoleIds: roleIdList(PANEL_ROLES_MAX),
  /** The first message in a new ticket; null: the bot's default. */
  welcomeMessage: EmbedConfig.nullable(),
  /** Title of the form's modal; null: the panel's name, cut to 45 characters. */
  formTitle: FormTitle.nullable(),
  /** 0 to 5 questions asked before the ticket opens (no questions: no form). */
  form: FormQuestions,
  perUserLimit: PerUserTicketLimit.nullable(),
  /** Open tickets of this panel at once; null: no limit. */
  perPanelLimit: limit(OPEN_TICKETS_PER_PANEL_MAX, 'limit for this panel').nullable(),
  claiming: z.boolean().nullable(),
  twoStepClose: z.boolean().nullable(),
  transcriptChannelId: Snowflake.nullable(),
  /** Premium. Null: tickets can be opened at any time. */
  supportHours: SupportHours.nullable(),
  /** This panel's own auto-close rules; null: the server's (versions saved before them: null). */
  autoClose: AutoCloseRules.nullable().default(null),
  /** Whether the bot asks for feedback when this panel's tickets close; null: the server's setting. */
  feedback: z.boolean().nullable().default(null),
});
export type Panel = z.infer<typeof Panel>;

export const MULTI_PANEL_MODES = ['buttons', 'select'] as const;
export type MultiPanelMode = (typeof MULTI_PANEL_MODES)[number];

/** Panels a multi-panel offers: as buttons 1 to 25 (5 rows of 5), in a select menu 2 to 25 options. */
export const MULTI_PANEL_BUTTONS_MAX = ACTION_ROW_BUTTONS_MAX * MESSAGE_ACTION_ROWS_MAX;
export const MULTI_PANEL_SELECT_MIN = 2;
export const MULTI_PANEL_SELECT_MAX = SELECT_OPTIONS_MAX;

/** One message offering several panels, as buttons or as a select menu. */
export const MultiPanel = z
  .object({
    id: ShortId,
    name: discordText(CHANNEL_NAME_MAX, { required: true }),
    embed: EmbedConfig,
    mode: z.enum(MULTI_PANEL_MODES, { error: 'Must be buttons or select.' }),
    /** The panels offered, in order (each once; they must exist: checked by the server config). */
    panelIds: z.array(ShortId),
    /** The select menu's placeholder (select mode); null: Discord's default. */
    selectPlaceholder: discordText(SELECT_PLACEHOLDER_MAX, { required: true }).nullable(),
  })
  .superRefine((multi, ctx) => {
    const count = multi.panelIds.length;
    const [min, max, message] =
      multi.mode === 'select'
        ? [MULTI_PANEL_SELECT_MIN, MULTI_PANEL_SELECT_MAX, `A select menu offers ${MULTI_PANEL_SELECT_MIN} to ${MULTI_PANEL_SELECT_MAX} panels (this has ${count}).`]
        : [1, MULTI_PANEL_BUTTONS_MAX, `Buttons offer 1 to ${MULTI_PANEL_BUTTONS_MAX} panels, ${ACTION_ROW_BUTTONS_MAX} to a row in ${MESSAGE_ACTION_ROWS_MAX} rows (this has ${count}).`];
    if (count < min) {
      ctx.addIssue({ code: 'too_small', origin: 'array', minimum: min, inclusive: true, path: ['panelIds'], input: multi.panelIds, message });
    } else if (count > max) {
      ctx.addIssue({ code: 'too_big', origin: 'array', maximum: max, inclusive: true, path: ['panelIds'], input: multi.panelIds, message });
    }
    forEachDuplicate(
      multi.panelIds,
      (id) => id,
      (index) =>
        ctx.addIssue({
          code: 'custom',
          path: ['panelIds', index],
          input: multi.panelIds[index],
          message: 'This panel is already offered by this multi-panel.',
        }),
    );
  });
export type MultiPanel = z.infer<typeof MultiPanel>;

/**
 * A new panel: its texts (in the reader's language, given by the caller), every optional part unset
 * (null: the server's general setting). The one template the dashboard's "new panel", the tests and
 * the demo data start from.
 */
export function newPanel(id: string, texts: { name: string; title: string; description: string; button: string }): Panel {
  return {
    id,
    name: texts.name,
    embed: { title: texts.title, description: texts.description, colour: 0x5865f2, imageUrl: null, thumbnailUrl: null, footer: '' },
    button: { label: texts.button, emoji: '🎫', style: 'primary' },
    categoryId: null,
    namingScheme: null,
    supportRoleIds: [],
    additionalRoleIds: [],
    pingRoleIds: [],
    welcomeMessage: null,
    formTitle: null,
    form: [],
    perUserLimit: null,
    perPanelLimit: null,
    claiming: null,
    twoStepClose: null,
    transcriptChannelId: null,
    supportHours: null,
    autoClose: null,
    feedback: null,
  };
}
