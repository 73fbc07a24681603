import { describe, expect, it } from 'vitest';
import {
  buildMultiPanelMessage,
  buildPanelMessage,
  type DiscordActionRow,
  type DiscordButton,
  type DiscordEmbed,
  type DiscordMessagePayload,
  type DiscordStringSelect,
  embedLength,
  validateMessagePayload,
} from './message';
import type { MultiPanel } from './panel';
import { EMOJI_TICKETY, minimalPanel, realisticConfig, textOf } from './test-fixtures';

const button = (n: number, patch: Partial<DiscordButton> = {}): DiscordButton => ({ type: 2, style: 1, label: `B${n}`, custom_id: `b${n}`, ...patch });
const row = (...components: DiscordActionRow['components']): DiscordActionRow => ({ type: 1, components });
const select = (patch: Partial<DiscordStringSelect> = {}): DiscordStringSelect => ({
  type: 3,
  custom_id: 'menu',
  options: [{ label: 'One', value: '1' }],
  ...patch,
});
const embeds = (...list: DiscordEmbed[]): DiscordMessagePayload => ({ embeds: list });

describe('buildPanelMessage', () => {
  it('posts the embed and one button whose custom id names the panel', () => {
    const [general, billing, report] = realisticConfig().panels;
    expect(buildPanelMessage(general!)).toEqual({
      embeds: [
        {
          title: '🎫 Support',
          description: general!.embed.description,
          color: 0x5865f2,
          image: { url: 'https://cdn.example.com/banners/support.png' },
          thumbnail: { url: 'https://cdn.example.com/logo.png' },
          footer: { text: 'Tickety • support replies within 24 hours' },
        },
      ],
      components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Open a ticket', emoji: { name: '🎫' }, custom_id: 'tickety:panel:general-help' }] }],
    });
    expect(buildPanelMessage(billing!).components).toEqual([
      {
        type: 1,
        components: [
          { type: 2, style: 3, label: 'Billing', emoji: { id: EMOJI_TICKETY, name: 'tickety_coin', animated: false }, custom_id: 'tickety:panel:billing' },
        ],
      },
    ]);
    // An emoji-only button has no label; unset embed parts are left out.
    expect(buildPanelMessage(report!)).toEqual({
      embeds: [{ title: 'Report a player' }],
      components: [{ type: 1, components: [{ type: 2, style: 4, emoji: { name: '🚨' }, custom_id: 'tickety:panel:report' }] }],
    });
  });
});

describe('buildMultiPanelMessage', () => {
  const panels = Array.from({ length: 25 }, (_, i) => minimalPanel(`p${i + 1}`));
  const multi = (mode: MultiPanel['mode'], count: number): MultiPanel => ({
    id: 'm1',
    name: 'All',
    embed: { title: 'Pick one', description: '', colour: null, imageUrl: null, thumbnailUrl: null, footer: '' },
    mode,
    panelIds: panels.slice(0, count).map((p) => p.id),
    selectPlaceholder: mode === 'select' ? 'Choose…' : null,
  });

  it('lays buttons out 5 to a row, in panel order', () => {
    const message = buildMultiPanelMessage(multi('buttons', 7), panels);
    expect(message.components?.map((r) => r.components.map((c) => (c as DiscordButton).custom_id))).toEqual([
      ['tickety:panel:p1', 'tickety:panel:p2', 'tickety:panel:p3', 'tickety:panel:p4', 'tickety:panel:p5'],
      ['tickety:panel:p6', 'tickety:panel:p7'],
    ]);
    const full = buildMultiPanelMessage(multi('buttons', 25), panels);
    expect(full.components).toHaveLength(5);
    expect(validateMessagePayload(full)).toEqual([]);
  });

  it('offers the panels in one select menu, valued by panel id', () => {
    const [general, , report] = realisticConfig().panels;
    const message = buildMultiPanelMessage(realisticConfig().multiPanels[0]!, realisticConfig().panels);
    expect(message.components).toEqual([
      {
        type: 1,
        components: [
          {
            type: 3,
            custom_id: 'tickety:multipanel:all',
            placeholder: 'Choose a topic…',
            min_values: 1,
            max_values: 1,
            options: [
              { label: general!.button.label, value: 'general-help', emoji: { name: '🎫' } },
              { label: 'Billing', value: 'billing', emoji: { id: EMOJI_TICKETY, name: 'tickety_coin', animated: false } },
              { label: report!.name, value: 'report', emoji: { name: '🚨' } },
            ],
          },
        ],
      },
    ]);
    expect(validateMessagePayload(buildMultiPanelMessage(multi('select', 25), panels))).toEqual([]);
  });

  it('throws on a panel id it cannot find', () => {
    expect(() => buildMultiPanelMessage({ ...multi('buttons', 1), panelIds: ['gone'] }, panels)).toThrow(
      'Multi-panel "m1" offers panel "gone", which does not exist.',
    );
  });
});

describe('validateMessagePayload', () => {
  it('refuses an empty message', () => {
    expect(validateMessagePayload({})).toEqual([{ path: [], message: 'The message is empty: it needs content, an embed or a component.' }]);
  });

  it('content: 2,000 characters, counted in code points', () => {
    expect(validateMessagePayload({ content: textOf('😀', 2000) })).toEqual([]);
    expect(validateMessagePayload({ content: textOf('👩‍👩‍👧', 2001) })).toEqual([
      { path: ['content'], message: 'The message content must be at most 2,000 characters (this is 2,001).' },
    ]);
  });

  it('embeds: 10 a message', () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({ title: `E${i}` }));
    expect(validateMessagePayload(embeds(...ten))).toEqual([]);
    expect(validateMessagePayload(embeds(...ten, { title: 'E10' }))).toEqual([
      { path: ['embeds'], message: 'A message has at most 10 embeds (this has 11).' },
    ]);
  });

  it('embed texts at their limits and one past them', () => {
    const cases: [DiscordEmbed, (string | number)[], string][] = [
      [{ title: textOf('漢', 257) }, ['embeds', 0, 'title'], 'The embed title must be at most 256 characters (this is 257).'],
      [{ description: textOf('😀', 4097) }, ['embeds', 0, 'description'], 'The embed description must be at most 4,096 characters (this is 4,097).'],
      [{ footer: { text: textOf('👩‍👩‍👧', 2049) } }, ['embeds', 0, 'footer', 'text'], 'The embed footer must be at most 2,048 characters (this is 2,049).'],
      [{ author: { name: textOf('😀', 257) } }, ['embeds', 0, 'author', 'name'], 'The embed author name must be at most 256 characters (this is 257).'],
      [{ fields: [{ name: textOf('漢', 257), value: 'v' }] }, ['embeds', 0, 'fields', 0, 'name'], 'A field name must be at most 256 characters (this is 257).'],
      [{ fields: [{ name: 'n', value: textOf('😀', 1025) }] }, ['embeds', 0, 'fields', 0, 'value'], 'A field value must be at most 1,024 characters (this is 1,025).'],
    ];
    for (const [embed, path, message] of cases) expect(validateMessagePayload(embeds(embed))).toEqual([{ path, message }]);
    const atLimit: DiscordEmbed = {
      title: textOf('漢', 256),
      fields: [{ name: textOf('😀', 256), value: textOf('👩‍👩‍👧', 1024) }],
      footer: { text: textOf('😀', 2048) },
      author: { name: textOf('a', 256) },
    };
    expect(validateMessagePayload(embeds(atLimit))).toEqual([]);
  });

  it('fields: 25 an embed, names and values not empty', () => {
    const fields = Array.from({ length: 25 }, (_, i) => ({ name: `F${i}`, value: 'v' }));
    expect(validateMessagePayload(embeds({ fields }))).toEqual([]);
    expect(validateMessagePayload(embeds({ fields: [...fields, { name: 'F25', value: ' ' }] }))).toEqual([
      { path: ['embeds', 0, 'fields'], message: 'An embed has at most 25 fields (this has 26).' },
      { path: ['embeds', 0, 'fields', 25, 'value'], message: 'A field value must not be empty.' },
    ]);
  });

  it("6,000 characters across all of a message's embeds", () => {
    const first: DiscordEmbed = { title: textOf('😀', 256), description: textOf('漢', 4096) };
    const second: DiscordEmbed = { fields: [{ name: textOf('a', 200), value: textOf('👩‍👩‍👧', 1000) }], author: { name: 'x'.repeat(200) } };
    const third: DiscordEmbed = { footer: { text: textOf('b', 248) } };
    expect(embedLength(first) + embedLength(second) + embedLength(third)).toBe(6000);
    expect(validateMessagePayload(embeds(first, second, third))).toEqual([]);
    expect(validateMessagePayload(embeds(first, second, { footer: { text: textOf('b', 249) } }))).toEqual([
      { path: ['embeds'], message: "The embeds have 6,001 characters together; Discord allows 6,000 across a message's embeds." },
    ]);
  });

  it('action rows: 5 a message; buttons: 5 a row; a select menu alone', () => {
    const rows = (n: number) => Array.from({ length: n }, (_, r) => row(button(r)));
    expect(validateMessagePayload({ components: rows(5) })).toEqual([]);
    expect(validateMessagePayload({ components: rows(6) })).toEqual([
      { path: ['components'], message: 'A message has at most 5 rows of components (this has 6).' },
    ]);
    const five = [1, 2, 3, 4, 5].map((n) => button(n));
    expect(validateMessagePayload({ components: [row(...five)] })).toEqual([]);
    expect(validateMessagePayload({ components: [row(...five, button(6))] })).toEqual([
      { path: ['components', 0, 'components'], message: 'A row has at most 5 buttons (this has 6).' },
    ]);
    expect(validateMessagePayload({ components: [row(select(), button(1))] })).toEqual([
      { path: ['components', 0, 'components'], message: 'A select menu must be alone in its row.' },
    ]);
    expect(validateMessagePayload({ components: [row()] })).toEqual([
      { path: ['components', 0, 'components'], message: 'An action row needs at least one component.' },
    ]);
  });

  it('custom ids: 1 to 100 characters, unique in the message', () => {
    expect(validateMessagePayload({ components: [row(button(1, { custom_id: textOf('😀', 100) }))] })).toEqual([]);
    expect(validateMessagePayload({ components: [row(button(1, { custom_id: textOf('😀', 101) }), button(2, { custom_id: '' }))] })).toEqual([
      { path: ['components', 0, 'components', 0, 'custom_id'], message: 'A custom id must be 1 to 100 characters (this is 101).' },
      { path: ['components', 0, 'components', 1, 'custom_id'], message: 'A custom id must be 1 to 100 characters (this is 0).' },
    ]);
    expect(validateMessagePayload({ components: [row(button(1)), row(select({ custom_id: 'b1' }))] })).toEqual([
      {
        path: ['components', 1, 'components', 0, 'custom_id'],
        message: 'The custom id "b1" is already used at components.0.components.0.custom_id: custom ids must be unique in a message.',
      },
    ]);
  });

  it('buttons: label 80, a label or an emoji, link buttons with a URL and no custom id', () => {
    expect(validateMessagePayload({ components: [row(button(1, { label: textOf('👩‍👩‍👧', 80) }))] })).toEqual([]);
    expect(validateMessagePayload({ components: [row(button(1, { label: textOf('👩‍👩‍👧', 81) }))] })).toEqual([
      { path: ['components', 0, 'components', 0, 'label'], message: 'A button label must be at most 80 characters (this is 81).' },
    ]);
    expect(validateMessagePayload({ components: [row(button(1, { label: undefined }))] })).toEqual([
      { path: ['components', 0, 'components', 0, 'label'], message: 'A button needs a label or an emoji.' },
    ]);
    expect(validateMessagePayload({ components: [row({ type: 2, style: 5, label: 'Docs', url: 'https://example.com' })] })).toEqual([]);
    expect(validateMessagePayload({ components: [row({ type: 2, style: 5, label: 'Docs', custom_id: 'x' })] })).toEqual([
      { path: ['components', 0, 'components', 0, 'url'], message: 'A link button needs a URL.' },
      { path: ['components', 0, 'components', 0, 'custom_id'], message: 'A link button has a URL, not a custom id.' },
    ]);
  });

  it('select menus: 25 options, placeholder 150, option texts 100, values unique', () => {
    const options = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `O${i}`, value: `v${i}` }));
    const path = ['components', 0, 'components', 0];
    const check = (patch: Partial<DiscordStringSelect>) => validateMessagePayload({ components: [row(select(patch))] });
    expect(check({ options: options(25), placeholder: textOf('😀', 150) })).toEqual([]);
    expect(check({ options: options(26) })).toEqual([{ path: [...path, 'options'], message: 'A select menu has 1 to 25 options (this has 26).' }]);
    expect(check({ options: [] })).toEqual([{ path: [...path, 'options'], message: 'A select menu has 1 to 25 options (this has 0).' }]);
    expect(check({ placeholder: textOf('漢', 151) })).toEqual([
      { path: [...path, 'placeholder'], message: 'The placeholder must be at most 150 characters (this is 151).' },
    ]);
    const at = { label: textOf('😀', 100), value: textOf('漢', 100), description: textOf('👩‍👩‍👧', 100) };
    expect(check({ options: [at] })).toEqual([]);
    const past = { label: textOf('😀', 101), value: textOf('漢', 101), description: textOf('👩‍👩‍👧', 101) };
    expect(check({ options: [past] })).toEqual([
      { path: [...path, 'options', 0, 'label'], message: 'An option label must be at most 100 characters (this is 101).' },
      { path: [...path, 'options', 0, 'value'], message: 'An option value must be at most 100 characters (this is 101).' },
      { path: [...path, 'options', 0, 'description'], message: 'An option description must be at most 100 characters (this is 101).' },
    ]);
    expect(check({ options: [...options(2), { label: 'again', value: 'v0' }] })).toEqual([
      { path: [...path, 'options', 2, 'value'], message: 'The option value "v0" is used twice in this menu.' },
    ]);
    expect(check({ options: options(2), min_values: 1, max_values: 3 })).toEqual([
      { path: [...path, 'max_values'], message: 'min_values (1) and max_values (3) must satisfy 0 ≤ min ≤ max ≤ the number of options.' },
    ]);
  });
});
