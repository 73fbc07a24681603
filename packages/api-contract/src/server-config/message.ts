/**
 * The Discord message a panel or multi-panel posts: built here once, so the API (which sends it
 * through the bot), the dashboard's live preview and the sandbox agree on its shape; and
 * `validateMessagePayload`, the message-level limits Discord enforces.
 *
 * The types are the subset of Discord's REST shapes (snake_case, numeric component types) that
 * Tickety sends, written out so that this package stays free of dependencies.
 */
import type { ComponentEmoji, EmbedConfig, PanelButton } from './embed';
import { formatCount } from './fields';
import {
  ACTION_ROW_BUTTONS_MAX,
  BUTTON_LABEL_MAX,
  CUSTOM_ID_MAX,
  CUSTOM_ID_MIN,
  discordLength,
  EMBED_AUTHOR_NAME_MAX,
  EMBED_DESCRIPTION_MAX,
  EMBED_FIELD_NAME_MAX,
  EMBED_FIELD_VALUE_MAX,
  EMBED_FIELDS_MAX,
  EMBED_FOOTER_TEXT_MAX,
  EMBED_TITLE_MAX,
  EMBEDS_TOTAL_MAX,
  MESSAGE_ACTION_ROWS_MAX,
  MESSAGE_CONTENT_MAX,
  MESSAGE_EMBEDS_MAX,
  SELECT_OPTION_DESCRIPTION_MAX,
  SELECT_OPTION_LABEL_MAX,
  SELECT_OPTION_VALUE_MAX,
  SELECT_OPTIONS_MAX,
  SELECT_PLACEHOLDER_MAX,
} from './limits';
import type { MultiPanel, Panel } from './panel';

/** Discord's component types used here. */
export const COMPONENT_TYPE = { ACTION_ROW: 1, BUTTON: 2, STRING_SELECT: 3 } as const;
/** Discord's button styles (5 is a link button: a URL, no custom id). */
export const DISCORD_BUTTON_STYLE = { primary: 1, secondary: 2, success: 3, danger: 4, link: 5 } as const;
export type DiscordButtonStyle = (typeof DISCORD_BUTTON_STYLE)[keyof typeof DISCORD_BUTTON_STYLE];

export interface DiscordEmbed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  image?: { url: string };
  thumbnail?: { url: string };
  footer?: { text: string; icon_url?: string };
  author?: { name: string; url?: string; icon_url?: string };
  fields?: { name: string; value: string; inline?: boolean }[];
}

/** A component's emoji: `{ name: '🎫' }` or a custom one `{ id, name, animated }`. */
export interface DiscordPartialEmoji {
  id?: string;
  name?: string;
  animated?: boolean;
}

export interface DiscordButton {
  type: typeof COMPONENT_TYPE.BUTTON;
  style: DiscordButtonStyle;
  label?: string;
  emoji?: DiscordPartialEmoji;
  /** Every style but link. */
  custom_id?: string;
  /** Link buttons only. */
  url?: string;
  disabled?: boolean;
}

export interface DiscordSelectOption {
  label: string;
  value: string;
  description?: string;
  emoji?: DiscordPartialEmoji;
  default?: boolean;
}

export interface DiscordStringSelect {
  type: typeof COMPONENT_TYPE.STRING_SELECT;
  custom_id: string;
  options: DiscordSelectOption[];
  placeholder?: string;
  min_values?: number;
  max_values?: number;
  disabled?: boolean;
}

export interface DiscordActionRow {
  type: typeof COMPONENT_TYPE.ACTION_ROW;
  components: (DiscordButton | DiscordStringSelect)[];
}

/** The body of Discord's create / edit message call, as far as Tickety uses it. */
export interface DiscordMessagePayload {
  content?: string;
  embeds?: DiscordEmbed[];
  components?: DiscordActionRow[];
}

/** The custom-id prefixes of Tickety's components; the bot routes an interaction by them. */
export const PANEL_CUSTOM_ID_PREFIX = 'tickety:panel:';
export const MULTI_PANEL_CUSTOM_ID_PREFIX = 'tickety:multipanel:';

/** The custom id of the button that opens a ticket of panel `panelId` (in its panel or in a multi-panel). */
export function panelCustomId(panelId: string): string {
  return `${PANEL_CUSTOM_ID_PREFIX}${panelId}`;
}

/** The custom id of a multi-panel's select menu (its option values are the panel ids). */
export function multiPanelCustomId(multiPanelId: string): string {
  return `${MULTI_PANEL_CUSTOM_ID_PREFIX}${multiPanelId}`;
}

/** An embed config as Discord's embed: empty texts and unset values left out. */
export function embedPayload(embed: EmbedConfig): DiscordEmbed {
  const out: DiscordEmbed = {};
  if (embed.title.trim() !== '') out.title = embed.title;
  if (embed.description.trim() !== '') out.description = embed.description;
  if (embed.colour !== null) out.color = embed.colour;
  if (embed.imageUrl) out.image = { url: embed.imageUrl };
  if (embed.thumbnailUrl) out.thumbnail = { url: embed.thumbnailUrl };
  if (embed.footer.trim() !== '') out.footer = { text: embed.footer };
  return out;
}

/** A config emoji as a component emoji. */
export function emojiPayload(emoji: ComponentEmoji): DiscordPartialEmoji {
  return typeof emoji === 'string' ? { name: emoji } : { id: emoji.id, name: emoji.name, animated: emoji.animated };
}

function ticketButton(panelId: string, button: PanelButton): DiscordButton {
  const out: DiscordButton = {
    type: COMPONENT_TYPE.BUTTON,
    style: DISCORD_BUTTON_STYLE[button.style],
    custom_id: panelCustomId(panelId),
  };
  if (button.label.trim() !== '') out.label = button.label;
  if (button.emoji !== null) out.emoji = emojiPayload(button.emoji);
  return out;
}

/** The message a panel posts: its embed and one button. */
export function buildPanelMessage(panel: Panel): DiscordMessagePayload {
  return {
    embeds: [embedPayload(panel.embed)],
    components: [{ type: COMPONENT_TYPE.ACTION_ROW, components: [ticketButton(panel.id, panel.button)] }],
  };
}

/**
 * The message a multi-panel posts: its embed and, per `mode`, each panel's own button (5 to a row)
 * or one select menu whose options are the panels (label: the button's label, else the panel's
 * name; value: the panel id). `panels` are the server's panels; a panel id it lacks is an error
 * (the server-config schema refuses such a multi-panel).
 */
export function buildMultiPanelMessage(multiPanel: MultiPanel, panels: readonly Panel[]): DiscordMessagePayload {
  const offered = multiPanel.panelIds.map((id) => {
    const panel = panels.find((p) => p.id === id);
    if (!panel) throw new Error(`Multi-panel "${multiPanel.id}" offers panel "${id}", which does not exist.`);
    return panel;
  });
  const embeds = [embedPayload(multiPanel.embed)];
  if (multiPanel.mode === 'select') {
    const select: DiscordStringSelect = {
      type: COMPONENT_TYPE.STRING_SELECT,
      custom_id: multiPanelCustomId(multiPanel.id),
      options: offered.map((panel) => {
        const option: DiscordSelectOption = { label: panel.button.label.trim() || panel.name, value: panel.id };
        if (panel.button.emoji !== null) option.emoji = emojiPayload(panel.button.emoji);
        return option;
      }),
      min_values: 1,
      max_values: 1,
    };
    if (multiPanel.selectPlaceholder !== null) select.placeholder = multiPanel.selectPlaceholder;
    return { embeds, components: [{ type: COMPONENT_TYPE.ACTION_ROW, components: [select] }] };
  }
  const components: DiscordActionRow[] = [];
  for (let i = 0; i < offered.length; i += ACTION_ROW_BUTTONS_MAX) {
    components.push({
      type: COMPONENT_TYPE.ACTION_ROW,
      components: offered.slice(i, i + ACTION_ROW_BUTTONS_MAX).map((panel) => ticketButton(panel.id, panel.button)),
    });
  }
  return { embeds, components };
}

/** One broken limit: where in the payload (Discord's own error paths: `embeds.0.title`) and what. */
export interface MessagePayloadIssue {
  path: (string | number)[];
  message: string;
}

/** The characters an embed counts towards the message's 6,000 (title, description, fields, footer, author). */
export function embedLength(embed: DiscordEmbed): number {
  let total = discordLength(embed.title ?? '') + discordLength(embed.description ?? '');
  for (const field of embed.fields ?? []) total += discordLength(field.name) + discordLength(field.value);
  total += discordLength(embed.footer?.text ?? '') + discordLength(embed.author?.name ?? '');
  return total;
}

/**
 * Checks a message against Discord's documented message limits (see limits.ts): content, embeds
 * and their 6,000 total, action rows, buttons and select menus, custom ids (1 to 100, unique in the
 * message). Returns every problem found; an empty list means Discord's documented limits hold.
 */
export function validateMessagePayload(payload: DiscordMessagePayload): MessagePayloadIssue[] {
  const issues: MessagePayloadIssue[] = [];
  const add = (path: (string | number)[], message: string) => issues.push({ path, message });
  const maxText = (path: (string | number)[], text: string | undefined, max: number, what: string, required = false) => {
    if (text === undefined) return;
    const length = discordLength(text);
    if (length > max) add(path, `${what} must be at most ${formatCount(max)} characters (this is ${formatCount(length)}).`);
    else if (required && text.trim() === '') add(path, `${what} must not be empty.`);
  };

  const embeds = payload.embeds ?? [];
  const components = payload.components ?? [];
  if ((payload.content ?? '').trim() === '' && embeds.length === 0 && components.length === 0) {
    add([], 'The message is empty: it needs content, an embed or a component.');
  }
  maxText(['content'], payload.content, MESSAGE_CONTENT_MAX, 'The message content');

  if (embeds.length > MESSAGE_EMBEDS_MAX) add(['embeds'], `A message has at most ${MESSAGE_EMBEDS_MAX} embeds (this has ${embeds.length}).`);
  let embedsTotal = 0;
  embeds.forEach((embed, embedIndex) => {
    maxText(['embeds', embedIndex, 'title'], embed.title, EMBED_TITLE_MAX, 'The embed title');
    maxText(['embeds', embedIndex, 'description'], embed.description, EMBED_DESCRIPTION_MAX, 'The embed description');
    maxText(['embeds', embedIndex, 'footer', 'text'], embed.footer?.text, EMBED_FOOTER_TEXT_MAX, 'The embed footer', true);
    maxText(['embeds', embedIndex, 'author', 'name'], embed.author?.name, EMBED_AUTHOR_NAME_MAX, 'The embed author name', true);
    const fields = embed.fields ?? [];
    if (fields.length > EMBED_FIELDS_MAX) add(['embeds', embedIndex, 'fields'], `An embed has at most ${EMBED_FIELDS_MAX} fields (this has ${fields.length}).`);
    fields.forEach((field, fieldIndex) => {
      maxText(['embeds', embedIndex, 'fields', fieldIndex, 'name'], field.name, EMBED_FIELD_NAME_MAX, 'A field name', true);
      maxText(['embeds', embedIndex, 'fields', fieldIndex, 'value'], field.value, EMBED_FIELD_VALUE_MAX, 'A field value', true);
    });
    if (embed.color !== undefined && !(Number.isInteger(embed.color) && embed.color >= 0 && embed.color <= 0xffffff)) {
      add(['embeds', embedIndex, 'color'], 'The embed colour must be an integer from 0 to 16777215 (0xFFFFFF).');
    }
    embedsTotal += embedLength(embed);
  });
  if (embedsTotal > EMBEDS_TOTAL_MAX) {
    add(['embeds'], `The embeds have ${formatCount(embedsTotal)} characters together; Discord allows ${formatCount(EMBEDS_TOTAL_MAX)} across a message's embeds.`);
  }

  if (components.length > MESSAGE_ACTION_ROWS_MAX) {
    add(['components'], `A message has at most ${MESSAGE_ACTION_ROWS_MAX} rows of components (this has ${components.length}).`);
  }
  const customIds = new Map<string, string>();
  const checkCustomId = (path: (string | number)[], customId: string | undefined) => {
    if (customId === undefined) {
      add(path, 'A custom id is missing.');
      return;
    }
    const length = discordLength(customId);
    if (length < CUSTOM_ID_MIN || length > CUSTOM_ID_MAX) {
      add(path, `A custom id must be ${CUSTOM_ID_MIN} to ${CUSTOM_ID_MAX} characters (this is ${formatCount(length)}).`);
    }
    const earlier = customIds.get(customId);
    if (earlier !== undefined) add(path, `The custom id "${customId}" is already used at ${earlier}: custom ids must be unique in a message.`);
    else customIds.set(customId, path.join('.'));
  };

  components.forEach((row, rowIndex) => {
    const rowPath = ['components', rowIndex];
    if (row.type !== COMPONENT_TYPE.ACTION_ROW) {
      add([...rowPath, 'type'], 'A top-level component must be an action row.');
      return;
    }
    const selects = row.components.filter((c) => c.type === COMPONENT_TYPE.STRING_SELECT).length;
    if (row.components.length === 0) add([...rowPath, 'components'], 'An action row needs at least one component.');
    else if (selects > 0 && row.components.length > 1) {
      add([...rowPath, 'components'], 'A select menu must be alone in its row.');
    } else if (row.components.length > ACTION_ROW_BUTTONS_MAX) {
      add([...rowPath, 'components'], `A row has at most ${ACTION_ROW_BUTTONS_MAX} buttons (this has ${row.components.length}).`);
    }
    row.components.forEach((component, componentIndex) => {
      const path = [...rowPath, 'components', componentIndex];
      if (component.type === COMPONENT_TYPE.BUTTON) {
        maxText([...path, 'label'], component.label, BUTTON_LABEL_MAX, 'A button label');
        if ((component.label ?? '').trim() === '' && component.emoji === undefined) {
          add([...path, 'label'], 'A button needs a label or an emoji.');
        }
        if (component.style === DISCORD_BUTTON_STYLE.link) {
          if (!component.url) add([...path, 'url'], 'A link button needs a URL.');
          if (component.custom_id !== undefined) add([...path, 'custom_id'], 'A link button has a URL, not a custom id.');
        } else {
          checkCustomId([...path, 'custom_id'], component.custom_id);
          if (component.url !== undefined) add([...path, 'url'], 'Only a link button has a URL.');
        }
      } else if (component.type === COMPONENT_TYPE.STRING_SELECT) {
        checkCustomId([...path, 'custom_id'], component.custom_id);
        maxText([...path, 'placeholder'], component.placeholder, SELECT_PLACEHOLDER_MAX, 'The placeholder');
        const options = component.options;
        if (options.length < 1 || options.length > SELECT_OPTIONS_MAX) {
          add([...path, 'options'], `A select menu has 1 to ${SELECT_OPTIONS_MAX} options (this has ${options.length}).`);
        }
        const values = new Set<string>();
        options.forEach((option, optionIndex) => {
          const optionPath = [...path, 'options', optionIndex];
          maxText([...optionPath, 'label'], option.label, SELECT_OPTION_LABEL_MAX, 'An option label', true);
          maxText([...optionPath, 'value'], option.value, SELECT_OPTION_VALUE_MAX, 'An option value', true);
          maxText([...optionPath, 'description'], option.description, SELECT_OPTION_DESCRIPTION_MAX, 'An option description');
          if (values.has(option.value)) add([...optionPath, 'value'], `The option value "${option.value}" is used twice in this menu.`);
          values.add(option.value);
        });
        const min = component.min_values ?? 1;
        const max = component.max_values ?? 1;
        if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 0 && min <= max && max >= 1 && max <= Math.max(options.length, 1))) {
          add([...path, 'max_values'], `min_values (${min}) and max_values (${max}) must satisfy 0 ≤ min ≤ max ≤ the number of options.`);
        }
      } else {
        add([...path, 'type'], 'Only buttons and select menus can be in an action row.');
      }
    });
  });
  return issues;
}
