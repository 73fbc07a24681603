import { describe, expect, it } from 'vitest';
import { type BlockNode, type InlineNode, parseInline, parseMarkdown, plainText } from './markdown';

const inline = (text: string) => parseInline(text);
const types = (nodes: InlineNode[]) => nodes.map((n) => n.type);

describe('Discord markdown: inline', () => {
  it('reads bold, italic, underline, strikethrough, spoiler and code', () => {
    expect(inline('**b** *i* _i_ __u__ ~~s~~ ||sp|| `c`').filter((n) => n.type !== 'text').map((n) => n.type)).toEqual(['strong', 'em', 'em', 'underline', 'strike', 'spoiler', 'code']);
  });

  it('nests as Discord does: ***x*** is bold italic, __*x*__ underlined italic', () => {
    expect(inline('***x***')).toEqual([{ type: 'strong', children: [{ type: 'em', children: [{ type: 'text', text: 'x' }] }] }]);
    expect(inline('__*x*__')).toEqual([{ type: 'underline', children: [{ type: 'em', children: [{ type: 'text', text: 'x' }] }] }]);
  });

  it('leaves snake_case words, unclosed markers and escaped ones as text', () => {
    expect(inline('snake_case_name')).toEqual([{ type: 'text', text: 'snake_case_name' }]);
    expect(inline('**unclosed *x')).toEqual([{ type: 'text', text: '**unclosed *x' }]);
    expect(inline('\\*not italic\\*')).toEqual([{ type: 'text', text: '*not italic*' }]);
  });

  it('reads mentions, custom emojis, timestamps, @everyone and links', () => {
    const nodes = inline('<@123456789012345678> <@!1> <@&112233445566778899> <#667788990011223344> <a:party:42> <t:1700000000:R> @here [docs](https://x.test/a) https://y.test/b.');
    expect(nodes.filter((n) => n.type !== 'text')).toEqual([
      { type: 'user', id: '123456789012345678' },
      { type: 'user', id: '1' },
      { type: 'role', id: '112233445566778899' },
      { type: 'channel', id: '667788990011223344' },
      { type: 'emoji', animated: true, name: 'party', id: '42' },
      { type: 'timestamp', seconds: 1700000000, style: 'R' },
      { type: 'here' },
      { type: 'link', url: 'https://x.test/a', children: [{ type: 'text', text: 'docs' }] },
      { type: 'url', url: 'https://y.test/b' },
    ]);
  });

  it('only takes http(s) links: javascript: and data: stay text', () => {
    expect(types(inline('[x](javascript:alert(1)) [y](data:text/html,hi)'))).toEqual(['text']);
  });

  it('keeps HTML as text', () => {
    expect(inline('<img src=x onerror=alert(1)>')).toEqual([{ type: 'text', text: '<img src=x onerror=alert(1)>' }]);
  });

  it('has no masked links where Discord has none (titles)', () => {
    expect(types(parseInline('[x](https://x.test)', { maskedLinks: false }))).toEqual(['text', 'url', 'text']);
  });
});

describe('Discord markdown: blocks', () => {
  it('reads headings, subtext, lists (nested, numbered), quotes and code blocks', () => {
    const blocks = parseMarkdown('# Big\n## Mid\n### Small\n-# tiny\n- a\n  - a.1\n- b\n3. three\n4. four\n> quoted **bold**\n> more\nplain\n```js\nconst a = 1;\n```\nafter');
    expect(blocks.map((b) => b.type)).toEqual(['heading', 'heading', 'heading', 'subtext', 'list', 'list', 'quote', 'paragraph', 'codeBlock', 'paragraph']);
    const [h1, , , , bullets, numbers, quote, , code] = blocks as [BlockNode & { type: 'heading' }, BlockNode, BlockNode, BlockNode, BlockNode & { type: 'list' }, BlockNode & { type: 'list' }, BlockNode & { type: 'quote' }, BlockNode, BlockNode & { type: 'codeBlock' }];
    expect(h1.level).toBe(1);
    expect(bullets.ordered).toBe(false);
    expect(bullets.items).toHaveLength(2);
    expect(bullets.items[0]![1]).toMatchObject({ type: 'list', items: [[{ type: 'paragraph' }]] });
    expect(numbers).toMatchObject({ ordered: true, start: 3 });
    expect(quote.children[0]).toMatchObject({ type: 'paragraph' });
    expect(code).toEqual({ type: 'codeBlock', lang: 'js', text: 'const a = 1;' });
  });

  it('quotes the rest of the message after >>>', () => {
    expect(parseMarkdown('intro\n>>> all\nof this')).toEqual([
      { type: 'paragraph', children: [{ type: 'text', text: 'intro' }] },
      { type: 'quote', children: [{ type: 'paragraph', children: [{ type: 'text', text: 'all\nof this' }] }] },
    ]);
  });

  it('needs the space after # and -, as Discord does', () => {
    expect(parseMarkdown('#hashtag\n-dash').map((b) => b.type)).toEqual(['paragraph']);
  });

  it('keeps markdown inside a code block as it is', () => {
    expect(parseMarkdown('```\n**not bold** <@1>\n```')).toEqual([{ type: 'codeBlock', lang: null, text: '**not bold** <@1>' }]);
  });

  it('parses a hostile 4,096-character text quickly', () => {
    for (const text of ['* a'.repeat(1365), '_a '.repeat(1365), '['.repeat(4096), '<@'.repeat(2048), '**'.repeat(2048)]) {
      const started = performance.now();
      parseMarkdown(text);
      // Generous: a keystroke must not stall (tests never assert tight timings).
      expect(performance.now() - started).toBeLessThan(500);
    }
  });

  it('gives the plain text of inline nodes', () => {
    expect(plainText(inline('**Open** a <:tk:1> ticket'))).toBe('Open a :tk: ticket');
  });
});
