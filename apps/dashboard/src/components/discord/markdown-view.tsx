/**
 * Discord markdown as React elements, styled as Discord shows it. Text always reaches the page as text
 * nodes (React escapes it); the only attributes taken from the source are http(s) link targets and
 * emoji ids in a CDN address, both checked by the parser's patterns.
 */
import type { ServerChannel, ServerRole } from '@tickety/api-contract';
import { formatDate, formatDateTime, formatRelative } from '@tickety/shared';
import { createContext, Fragment, type ReactNode, useContext, useMemo, useState } from 'react';
import { useT } from '../../lib/i18n';
import { type BlockNode, type InlineNode, parseInline, parseMarkdown } from './markdown';

/** What mentions resolve against: the server's roles and channels when loaded, and where emojis are. */
export interface DiscordNames {
  /** False while the server's roles and channels are not known (mentions then show their ids). */
  loaded: boolean;
  roles: ReadonlyMap<string, Pick<ServerRole, 'name' | 'color'>>;
  channels: ReadonlyMap<string, Pick<ServerChannel, 'name'>>;
  emojiUrl(id: string, animated: boolean): string;
  /** Members' names by id (a transcript knows them; the panel preview does not). */
  users?: ReadonlyMap<string, string>;
}

export const DiscordNamesContext = createContext<DiscordNames>({ loaded: false, roles: new Map(), channels: new Map(), emojiUrl: () => '' });

export function useDiscordNames(): DiscordNames {
  return useContext(DiscordNamesContext);
}

/** The Discord theme the preview draws in (role colours are kept readable on it). */
export const DiscordThemeContext = createContext<'dark' | 'light'>('dark');

type Rgb = [number, number, number];
const rgbOf = (n: number): Rgb => [(n >> 16) & 255, (n >> 8) & 255, n & 255];
const mix = (a: Rgb, b: Rgb, share: number): Rgb => [0, 1, 2].map((i) => Math.round(a[i]! * share + b[i]! * (1 - share))) as Rgb;
function luminance([r, g, b]: Rgb): number {
  const [lr, lg, lb] = [r, g, b].map((value) => {
    const channel = value / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
}
function contrast(fore: Rgb, back: Rgb): number {
  const [hi, lo] = [luminance(fore), luminance(back)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
const hex = ([r, g, b]: Rgb) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
/** Message and embed backgrounds of each theme. */
const SURFACES: Record<'dark' | 'light', Rgb[]> = { dark: [rgbOf(0x2b2d31), rgbOf(0x313338)], light: [rgbOf(0xf2f3f5), rgbOf(0xffffff)] };

/**
 * A role mention's text and tint in the role's colour, as Discord draws it, but moved towards white
 * (dark theme) or black (light theme) until it reads at 4.5:1 on the pill (the contrast text needs): Discord's own
 * light-theme colours do not always.
 */
function rolePillColours(colour: number, theme: 'dark' | 'light'): { color: string; backgroundColor: string } {
  const role = rgbOf(colour);
  const pills = SURFACES[theme].map((surface) => mix(role, surface, 0.1));
  const towards: Rgb = theme === 'dark' ? [255, 255, 255] : [0, 0, 0];
  let text = role;
  for (let step = 1; step <= 10 && Math.min(...pills.map((pill) => contrast(text, pill))) < 4.5; step++) text = mix(towards, role, step / 10);
  return { color: hex(text), backgroundColor: `${hex(role)}1a` };
}

const PILL = 'rounded-[3px] bg-(--d-mention-bg) px-0.5 font-medium text-(--d-mention-text)';

/**
 * True where the markup is saved as a file that runs no script (the transcript's HTML download):
 * what needs a click shows itself with CSS instead (a spoiler on hover or focus).
 */
export const StaticMarkupContext = createContext(false);

function Spoiler({ children }: { children: ReactNode }) {
  const t = useT();
  const [shown, setShown] = useState(false);
  const isStatic = useContext(StaticMarkupContext);
  if (isStatic) {
    return (
      // biome-ignore lint/a11y/noNoninteractiveTabindex: without script, focus is how a keyboard reveals the spoiler
      <span tabIndex={0} title={t('preview.spoiler')} className="rounded-[3px] bg-(--d-spoiler) px-0.5 text-transparent hover:bg-(--d-spoiler-shown) hover:text-inherit focus:bg-(--d-spoiler-shown) focus:text-inherit">
        {children}
      </span>
    );
  }
  if (shown) return <span className="rounded-[3px] bg-(--d-spoiler-shown) px-0.5">{children}</span>;
  return (
    <button type="button" onClick={() => setShown(true)} className="rounded-[3px] bg-(--d-spoiler) px-0.5 text-transparent" aria-label={t('preview.spoiler')}>
      <span aria-hidden="true">{children}</span>
    </button>
  );
}

function Timestamp({ seconds, style }: { seconds: number; style: string }) {
  const ms = seconds * 1000;
  let text: string;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) text = String(seconds);
  else if (style === 'R') text = formatRelative(ms);
  else if (style === 'd' || style === 'D') text = formatDate(new Date(ms).toISOString().slice(0, 10));
  else text = formatDateTime(ms, { seconds: style === 'T' });
  return <span className="rounded-[3px] bg-(--d-code-bg) px-0.5">{text}</span>;
}

function Inline({ nodes }: { nodes: InlineNode[] }) {
  const names = useDiscordNames();
  const theme = useContext(DiscordThemeContext);
  const t = useT();
  return (
    <>
      {nodes.map((node, index) => {
        const key = index;
        switch (node.type) {
          case 'text':
            return <Fragment key={key}>{node.text}</Fragment>;
          case 'strong':
            return (
              <strong key={key} className="font-bold">
                <Inline nodes={node.children} />
              </strong>
            );
          case 'em':
            return (
              <em key={key} className="italic">
                <Inline nodes={node.children} />
              </em>
            );
          case 'underline':
            return (
              <u key={key}>
                <Inline nodes={node.children} />
              </u>
            );
          case 'strike':
            return (
              <s key={key}>
                <Inline nodes={node.children} />
              </s>
            );
          case 'spoiler':
            return (
              <Spoiler key={key}>
                <Inline nodes={node.children} />
              </Spoiler>
            );
          case 'code':
            return (
              <code key={key} className="rounded-[3px] bg-(--d-code-bg) px-[0.2em] py-[0.1em] font-mono text-[0.85em] whitespace-pre-wrap">
                {node.text}
              </code>
            );
          case 'link':
            return (
              <a key={key} href={node.url} target="_blank" rel="noopener noreferrer nofollow" className="text-(--d-link) hover:underline">
                <Inline nodes={node.children} />
              </a>
            );
          case 'url':
            return (
              <a key={key} href={node.url} target="_blank" rel="noopener noreferrer nofollow" className="break-all text-(--d-link) hover:underline">
                {node.url}
              </a>
            );
          case 'user':
            return (
              <span key={key} className={PILL} title={node.id}>
                @{names.users?.get(node.id) ?? t('preview.user')}
              </span>
            );
          case 'role': {
            const role = names.roles.get(node.id);
            return (
              <span key={key} className={PILL} title={node.id} style={role && role.color !== 0 ? rolePillColours(role.color, theme) : undefined}>
                {role ? (role.name.startsWith('@') ? role.name : `@${role.name}`) : `@${names.loaded ? t('preview.deletedRole') : node.id}`}
              </span>
            );
          }
          case 'channel': {
            const channel = names.channels.get(node.id);
            return (
              <span key={key} className={PILL} title={node.id}>
                #{channel ? channel.name : names.loaded ? t('preview.unknownChannel') : node.id}
              </span>
            );
          }
          case 'emoji':
            return <img key={key} src={names.emojiUrl(node.id, node.animated)} alt={`:${node.name}:`} title={`:${node.name}:`} className="inline-block size-[1.375em] object-contain align-bottom" />;
          case 'timestamp':
            return <Timestamp key={key} seconds={node.seconds} style={node.style} />;
          case 'everyone':
          case 'here':
            return (
              <span key={key} className={PILL}>
                @{node.type}
              </span>
            );
          default:
            return null;
        }
      })}
    </>
  );
}

function endsWithNewline(nodes: InlineNode[]): boolean {
  const last = nodes.at(-1);
  return last?.type === 'text' && last.text.endsWith('\n');
}

const HEADING = { 1: 'mt-2 mb-1 text-[1.5rem] leading-[1.375] font-bold', 2: 'mt-2 mb-1 text-[1.25rem] leading-[1.375] font-bold', 3: 'mt-2 mb-1 text-[1rem] leading-[1.375] font-bold' } as const;

function Blocks({ blocks }: { blocks: BlockNode[] }) {
  return (
    <>
      {blocks.map((block, index) => {
        const key = index;
        switch (block.type) {
          case 'paragraph':
            return (
              <div key={key} className="whitespace-pre-wrap break-words">
                <Inline nodes={block.children} />
                {/* A line break at the very end shows as an empty line in Discord; the browser drops it. */}
                {endsWithNewline(block.children) ? '\n' : null}
              </div>
            );
          case 'heading':
            // Not a page heading: the preview's headings do not join the page's outline.
            return (
              <div key={key} className={`${HEADING[block.level]} break-words text-(--d-header)`}>
                <Inline nodes={block.children} />
              </div>
            );
          case 'subtext':
            return (
              <div key={key} className="text-[0.8125rem] break-words text-(--d-muted)">
                <Inline nodes={block.children} />
              </div>
            );
          case 'codeBlock':
            return (
              <pre key={key} className="my-1.5 overflow-x-auto rounded-[4px] border border-(--d-code-border) bg-(--d-code-bg) p-2 font-mono text-[0.875em] leading-[1.125rem] whitespace-pre-wrap">
                <code>{block.text}</code>
              </pre>
            );
          case 'quote':
            return (
              <div key={key} className="flex">
                <span aria-hidden="true" className="w-1 shrink-0 rounded-[4px] bg-(--d-quote)" />
                <blockquote className="min-w-0 px-3">
                  <Blocks blocks={block.children} />
                </blockquote>
              </div>
            );
          case 'list': {
            const items = block.items.map((item, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is the source's, in order
              <li key={i} className="break-words">
                <Blocks blocks={item} />
              </li>
            ));
            return block.ordered ? (
              <ol key={key} start={block.start} className="my-0.5 list-decimal pl-6">
                {items}
              </ol>
            ) : (
              <ul key={key} className="my-0.5 list-disc pl-6 [&_ul]:list-[circle]">
                {items}
              </ul>
            );
          }
          default:
            return null;
        }
      })}
    </>
  );
}

/** A text with Discord's block and inline markdown (an embed description, message content). */
export function MarkdownView({ text }: { text: string }) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return <Blocks blocks={blocks} />;
}

/** The nodes with every link made its text (inside a link of its own: no link in a link). */
function unlink(nodes: InlineNode[]): InlineNode[] {
  return nodes.flatMap((node): InlineNode[] => {
    if (node.type === 'url') return [{ type: 'text', text: node.url }];
    if (node.type === 'link') return unlink(node.children);
    if ('children' in node) return [{ ...node, children: unlink(node.children) }];
    return [node];
  });
}

/** A text with inline markdown only (an embed title, a field's name); `links={false}` inside a link. */
export function InlineMarkdown({ text, links = true }: { text: string; links?: boolean }) {
  const nodes = useMemo(() => {
    const parsed = parseInline(text, { maskedLinks: false });
    return links ? parsed : unlink(parsed);
  }, [text, links]);
  return <Inline nodes={nodes} />;
}
