import { describe, expect, test } from 'vitest';
import { colourCss, type MarkdownContext, renderInline, renderMarkdown } from './markdown';

const ctx: MarkdownContext = {
  user: (id) => (id === '1' ? 'Ava <3' : null),
  role: (id) => (id === '2' ? { name: 'Support Team', color: 0x1abc9c } : null),
  channel: (id) => (id === '3' ? { name: 'support', href: '../channels/3' } : null),
  emojiSrc: (id, animated) => `../cdn/emojis/${id}.${animated ? 'gif' : 'png'}`,
};
const md = (s: string) => renderMarkdown(s, ctx);

describe('renderMarkdown', () => {
  test('escapes everything that is not markdown', () => {
    expect(md('<script>alert("x")</script> & \'q\'')).toBe('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;q&#39;');
    expect(md('<img src=x onerror=alert(1)>')).not.toContain('<img');
  });

  test('inline styles, nested', () => {
    expect(md('**bold *and italic* too**')).toBe('<strong>bold <em>and italic</em> too</strong>');
    expect(md('__under__ ~~gone~~ ||secret|| _it_')).toBe('<u>under</u> <s>gone</s> <span class="spoiler">secret</span> <em>it</em>');
    expect(md('`**not bold** <b>`')).toBe('<code>**not bold** &#60;b&#62;</code>');
    expect(md('**<i>x</i>**')).toBe('<strong>&#60;i&#62;x&#60;/i&#62;</strong>');
  });

  test('code blocks are verbatim', () => {
    expect(md('before\n```js\nconst a = "<b>";\n**x**\n```\nafter')).toBe(
      'before<pre><code data-lang="js">const a = &#34;&#60;b&#62;&#34;;\n**x**\n</code></pre>after',
    );
  });

  test('quotes, headings, subtext and lists', () => {
    expect(md('> quoted **text**\nplain')).toBe('<blockquote>quoted <strong>text</strong></blockquote>plain');
    expect(md('# Title\n## Sub\n-# small\n- one\n- two')).toBe(
      '<div class="md-h1">Title</div><div class="md-h2">Sub</div><div class="md-sub">small</div><ul><li>one</li><li>two</li></ul>',
    );
    expect(md('a\nb')).toBe('a<br>b');
  });

  test('mentions, emoji and timestamps', () => {
    expect(md('<@1> <@!1> <@9>')).toBe('<span class="mention">@Ava &#60;3</span> <span class="mention">@Ava &#60;3</span> <span class="mention">@unknown-user</span>');
    expect(md('<@&2>')).toBe('<span class="mention k-1abc9c">@Support Team</span>');
    expect(md('<#3> <#4>')).toBe('<a class="mention" href="../channels/3">#support</a> <span class="mention">#unknown</span>');
    expect(md('<a:coin:5>')).toBe('<img class="emoji" src="../cdn/emojis/5.gif" alt=":coin:" title=":coin:" width="22" height="22">');
    expect(md('<t:1768478400:D>')).toBe('<time class="stamp">2026-01-15</time>');
    expect(md('@everyone')).toBe('<span class="mention">@everyone</span>');
  });

  test('links: http(s) only, escaped in their attribute', () => {
    expect(md('[docs](https://x.example/a?b=1&c="2")')).toBe(
      '<a href="https://x.example/a?b=1&#38;c=&#34;2&#34;" rel="noopener noreferrer nofollow" target="_blank">docs</a>',
    );
    expect(md('[docs](https://x.example/a)')).toBe('<a href="https://x.example/a" rel="noopener noreferrer nofollow" target="_blank">docs</a>');
    expect(md('[click](javascript:alert(1))')).toBe('[click](javascript:alert(1))');
    expect(md('see https://x.example/page.')).toBe('see <a href="https://x.example/page" rel="noopener noreferrer nofollow" target="_blank">https://x.example/page</a>.');
  });

  test('hostile input renders quickly', () => {
    const started = performance.now();
    for (const text of ['*'.repeat(20_000), '**a'.repeat(5_000), '_'.repeat(20_000), '`'.repeat(20_000), '> '.repeat(5_000), '[a]('.repeat(3_000), '||'.repeat(10_000)]) {
      expect(renderMarkdown(text, ctx).length).toBeGreaterThan(0);
    }
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test('nesting stops at a depth', () => {
    const deep = `${'**'.repeat(1)}${'__'.repeat(1)}${'~~'.repeat(1)}${'||'.repeat(1)}*x*||~~__**`;
    expect(renderInline(deep, ctx)).toContain('<strong><u><s><span class="spoiler">*x*</span></s></u></strong>');
  });

  test('colour classes', () => {
    expect(colourCss([0x1abc9c, 0, 0x1abc9c, -1, 0x1000000])).toBe('.k-1abc9c{--k:#1abc9c}');
  });
});
