/** The embed, emoji and button of a panel's message. */
import { z } from '../zod-setup';
import { Snowflake } from '../auth';
import { Colour, discordText, formatCount, HttpUrl } from './fields';
import {
  BUTTON_LABEL_MAX,
  discordLength,
  EMBED_DESCRIPTION_MAX,
  EMBED_FOOTER_TEXT_MAX,
  EMBED_TITLE_MAX,
  EMBEDS_TOTAL_MAX,
} from './limits';

/**
 * An embed as the dashboard edits it. Empty strings and nulls are "not set". The description takes
 * Discord markdown as it is (Discord renders it; nothing here parses it).
 */
export const EmbedConfig = z
  .object({
    title: discordText(EMBED_TITLE_MAX),
    description: discordText(EMBED_DESCRIPTION_MAX),
    /** 0x000000 to 0xFFFFFF, or null for Discord's default. */
    colour: Colour.nullable(),
    imageUrl: HttpUrl.nullable(),
    thumbnailUrl: HttpUrl.nullable(),
    footer: discordText(EMBED_FOOTER_TEXT_MAX),
  })
  .superRefine((embed, ctx) => {
    const blank = (s: string) => s.trim() === '';
    if (blank(embed.title) && blank(embed.description) && blank(embed.footer) && !embed.imageUrl && !embed.thumbnailUrl) {
      ctx.addIssue({
        code: 'custom',
        input: embed,
        message: 'The embed is empty: give it a title, a description or an image.',
      });
    }
    // Each message the dashboard builds carries one embed, so the message-wide total is this one's.
    const total = embedConfigLength(embed);
    if (total > EMBEDS_TOTAL_MAX) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'embed',
        maximum: EMBEDS_TOTAL_MAX,
        inclusive: true,
        input: embed,
        message: `The title, description and footer are ${formatCount(total)} characters together; Discord allows ${formatCount(EMBEDS_TOTAL_MAX)} across a message's embeds.`,
      });
    }
  });
export type EmbedConfig = z.infer<typeof EmbedConfig>;

/** What an embed config counts towards Discord's 6,000-character total (title, description, footer). */
export function embedConfigLength(embed: Pick<EmbedConfig, 'title' | 'description' | 'footer'>): number {
  return discordLength(embed.title) + discordLength(embed.description) + discordLength(embed.footer);
}

// `v` flag sets (RGI_Emoji) are ES2024: built at run time so the TypeScript target can stay ES2022,
// with a plainer check for an engine without them (every browser since 2023 has them, Node 20 too).
const RGI_EMOJI = (() => {
  try {
    // biome-ignore lint/complexity/useRegexLiterals: a `v` literal needs an ES2024 target; built at run time on purpose
    return new RegExp('^\\p{RGI_Emoji}$', 'v');
  } catch {
    return /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3)(?:\uFE0F|\u200D|\p{Extended_Pictographic}|\p{Emoji_Modifier}|[\u{E0020}-\u{E007F}])*$/u;
  }
})();
/** One pictograph without its emoji-style selector, which Discord also shows as an emoji ('❤'). */
const BARE_PICTOGRAPH = /^\p{Extended_Pictographic}\uFE0F?$/u;

/** Whether `text` is exactly one Unicode emoji (a ZWJ sequence, flag or keycap counts as one). */
export function isUnicodeEmoji(text: string): boolean {
  return RGI_EMOJI.test(text) || (BARE_PICTOGRAPH.test(text) && !/^[\u00A9\u00AE\u2122]/.test(text));
}

/** A standard emoji, given as itself ('🎫'). */
export const UnicodeEmoji = z.string().refine(isUnicodeEmoji, 'Must be exactly one emoji, such as 🎫.');

/** A server's custom emoji, as Discord describes it in a component. */
export const CustomEmoji = z.object({
  id: Snowflake,
  name: z.string().regex(/^[A-Za-z0-9_]{2,32}$/, 'Must be the emoji name: 2 to 32 letters, digits or _.'),
  animated: z.boolean(),
});
export type CustomEmoji = z.infer<typeof CustomEmoji>;

/** A button or select-option emoji: a standard emoji ('🎫') or a custom one. */
export const ComponentEmoji = z.union([UnicodeEmoji, CustomEmoji]);
export type ComponentEmoji = z.infer<typeof ComponentEmoji>;

export const BUTTON_STYLES = ['primary', 'secondary', 'success', 'danger'] as const;
export const ButtonStyle = z.enum(BUTTON_STYLES, { error: 'Must be one of primary, secondary, success or danger.' });
export type ButtonStyle = z.infer<typeof ButtonStyle>;

/** The button that opens a ticket. Discord needs a label or an emoji (or both). */
export const PanelButton = z
  .object({
    label: discordText(BUTTON_LABEL_MAX),
    emoji: ComponentEmoji.nullable(),
    style: ButtonStyle,
  })
  .superRefine((button, ctx) => {
    if (button.label.trim() === '' && button.emoji === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['label'],
        input: button.label,
        message: 'The button needs a label or an emoji.',
      });
    }
  });
export type PanelButton = z.infer<typeof PanelButton>;
