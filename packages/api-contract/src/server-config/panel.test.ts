import { describe, expect, it } from 'vitest';
import { ComponentEmoji, EmbedConfig, isUnicodeEmoji } from './embed';
import { FormQuestion } from './form';
import { NamingScheme, namingSchemeProblems } from './naming-scheme';
import { MultiPanel, Panel } from './panel';
import { isTimeZone, SupportHours } from './support-hours';
import { COUNTING_UNITS, issuesOf, minimalPanel, realisticConfig, textOf, withValue } from './test-fixtures';

const panel = () => realisticConfig().panels[0]!;
const multi = () => realisticConfig().multiPanels[0]!;

/** Every Discord-counted text of a panel: its path, its limit and whether it may be empty. */
const PANEL_TEXTS: { path: string; max: number; required: boolean }[] = [
  { path: 'name', max: 100, required: true },
  { path: 'embed.title', max: 256, required: false },
  { path: 'embed.description', max: 4096, required: false },
  { path: 'embed.footer', max: 2048, required: false },
  { path: 'button.label', max: 80, required: false },
  { path: 'namingScheme', max: 100, required: true },
  { path: 'welcomeMessage.title', max: 256, required: false },
  { path: 'welcomeMessage.description', max: 4096, required: false },
  { path: 'formTitle', max: 45, required: true },
  { path: 'form.0.label', max: 45, required: true },
  { path: 'form.0.placeholder', max: 100, required: false },
  { path: 'supportHours.outOfHoursMessage', max: 2000, required: true },
];

describe('panel texts at their limit and one past it, counted in code points', () => {
  for (const { path, max } of PANEL_TEXTS) {
    for (const unit of COUNTING_UNITS) {
      it(`${path}: ${max} × ${unit} passes, ${max + 1} fails`, () => {
        expect(issuesOf(Panel, withValue(panel(), path, textOf(unit, max)))).toEqual([]);
        expect(issuesOf(Panel, withValue(panel(), path, textOf(unit, max + 1)))).toEqual([
          {
            path,
            code: 'too_big',
            message: `Must be at most ${max.toLocaleString('en-US')} characters (this is ${(max + 1).toLocaleString('en-US')}).`,
          },
        ]);
      });
    }
  }

  it('accepts at the limit a text whose UTF-16 length is twice the limit', () => {
    const label = '😀'.repeat(80);
    expect(label.length).toBe(160);
    expect(issuesOf(Panel, withValue(panel(), 'button.label', label))).toEqual([]);
  });

  it('refuses required texts that are empty or blank, and accepts optional ones empty', () => {
    for (const { path, required } of PANEL_TEXTS) {
      const issues = issuesOf(Panel, withValue(panel(), path, '  '));
      if (required) expect(issues, path).toEqual([{ path, code: 'too_small', message: 'Must not be empty.' }]);
      else expect(issues, path).toEqual([]);
    }
  });
});

describe('embed', () => {
  const embed = (patch: Partial<EmbedConfig>): EmbedConfig => ({
    title: '',
    description: '',
    colour: null,
    imageUrl: null,
    thumbnailUrl: null,
    footer: '',
    ...patch,
  });

  it('allows 6,000 characters across title, description and footer, and not 6,001', () => {
    const full = embed({ title: textOf('😀', 256), description: textOf('漢', 4096), footer: textOf('👩‍👩‍👧', 1648) });
    expect(issuesOf(EmbedConfig, full)).toEqual([]);
    expect(issuesOf(Panel, withValue(panel(), 'embed', { ...full, footer: textOf('👩‍👩‍👧', 1649) }))).toEqual([
      {
        path: 'embed',
        code: 'too_big',
        message: "The title, description and footer are 6,001 characters together; Discord allows 6,000 across a message's embeds.",
      },
    ]);
  });

  it('checks the welcome message the same way', () => {
    const big = embed({ title: 'a'.repeat(256), description: 'b'.repeat(4096), footer: 'c'.repeat(1700) });
    expect(issuesOf(Panel, withValue(panel(), 'welcomeMessage', big))).toMatchObject([{ path: 'welcomeMessage', code: 'too_big' }]);
  });

  it('refuses an empty embed and accepts an image-only one', () => {
    expect(issuesOf(Panel, withValue(panel(), 'embed', embed({ title: ' ' })))).toEqual([
      { path: 'embed', code: 'custom', message: 'The embed is empty: give it a title, a description or an image.' },
    ]);
    expect(issuesOf(EmbedConfig, embed({ imageUrl: 'https://cdn.example.com/banner.png' }))).toEqual([]);
  });

  it('takes colours 0 to 0xFFFFFF as integers', () => {
    const message = 'Must be a colour from #000000 to #FFFFFF (an integer from 0 to 16777215).';
    expect(issuesOf(EmbedConfig, embed({ title: 'x', colour: 0 }))).toEqual([]);
    expect(issuesOf(EmbedConfig, embed({ title: 'x', colour: 0xffffff }))).toEqual([]);
    for (const colour of [0x1000000, -1, 1.5]) {
      expect(issuesOf(Panel, withValue(panel(), 'embed.colour', colour))).toEqual([{ path: 'embed.colour', code: expect.any(String), message }]);
    }
  });

  it('takes http(s) links for the image and thumbnail only', () => {
    const message = 'Must be a link starting with https:// (or http://).';
    for (const bad of ['javascript:alert(1)', 'ftp://example.com/a.png', 'not a url', '']) {
      expect(issuesOf(Panel, withValue(panel(), 'embed.imageUrl', bad))).toEqual([{ path: 'embed.imageUrl', code: 'invalid_format', message }]);
    }
    expect(issuesOf(Panel, withValue(panel(), 'embed.thumbnailUrl', `https://x.example/${'a'.repeat(2100)}`))).toEqual([
      { path: 'embed.thumbnailUrl', code: 'too_big', message: 'Must be at most 2,048 characters long.' },
    ]);
  });
});

describe('button and emoji', () => {
  it('takes one Unicode emoji, including ZWJ sequences, flags and keycaps', () => {
    for (const emoji of ['🎫', '👩‍👩‍👧', '🇩🇪', '1️⃣', '❤️', '❤', '✅', '🏴󠁧󠁢󠁥󠁮󠁧󠁿']) expect(isUnicodeEmoji(emoji), emoji).toBe(true);
    for (const text of ['', 'a', '😀😀', ':ticket:', '©', '#', '🎫 ']) expect(isUnicodeEmoji(text), text).toBe(false);
    expect(issuesOf(Panel, withValue(panel(), 'button.emoji', 'ticket'))).toEqual([
      { path: 'button.emoji', code: 'custom', message: 'Must be exactly one emoji, such as 🎫.' },
    ]);
  });

  it('takes a custom emoji with a Discord id and a valid name', () => {
    expect(issuesOf(ComponentEmoji, { id: '889900112233445566', name: 'tickety_coin', animated: true })).toEqual([]);
    expect(issuesOf(Panel, withValue(panel(), 'button.emoji', { id: '12', name: 'a b', animated: false }))).toEqual([
      { path: 'button.emoji.id', code: 'invalid_format', message: 'must be a Discord id (17 to 20 digits)' },
      { path: 'button.emoji.name', code: 'invalid_format', message: 'Must be the emoji name: 2 to 32 letters, digits or _.' },
    ]);
  });

  it('needs a label or an emoji', () => {
    const noEmoji = withValue(panel(), 'button.emoji', null);
    expect(issuesOf(Panel, withValue(noEmoji, 'button.label', ''))).toEqual([
      { path: 'button.label', code: 'custom', message: 'The button needs a label or an emoji.' },
    ]);
    expect(issuesOf(Panel, withValue(panel(), 'button.label', ''))).toEqual([]);
  });

  it('takes the four styles Discord has for custom-id buttons', () => {
    expect(issuesOf(Panel, withValue(panel(), 'button.style', 'link'))).toEqual([
      { path: 'button.style', code: 'invalid_value', message: 'Must be one of primary, secondary, success or danger.' },
    ]);
  });
});

describe('channel naming scheme', () => {
  it('takes the three variables', () => {
    expect(namingSchemeProblems('ticket-{count}')).toEqual([]);
    expect(namingSchemeProblems('{username}-{userid}-{count}')).toEqual([]);
    expect(namingSchemeProblems('support')).toEqual([]);
  });

  it('names an unknown variable', () => {
    expect(issuesOf(NamingScheme, 'ticket-{foo}')).toEqual([
      { path: '', code: 'custom', message: 'Unknown variable {foo}: use {count}, {username} or {userid}.' },
    ]);
    expect(issuesOf(Panel, withValue(panel(), 'namingScheme', '{Count}-{user_name}-{foo}-{foo}'))).toEqual([
      { path: 'namingScheme', code: 'custom', message: 'Unknown variables {Count}, {user_name}, {foo}: use {count}, {username} or {userid}.' },
    ]);
    expect(issuesOf(NamingScheme, 'a-{}')).toEqual([{ path: '', code: 'custom', message: 'Unknown variable {}: use {count}, {username} or {userid}.' }]);
  });

  it('finds an unclosed brace', () => {
    expect(issuesOf(NamingScheme, 'ticket-{count')).toEqual([
      { path: '', code: 'custom', message: 'A { or } is not closed: write variables as {count}, {username} or {userid}.' },
    ]);
    expect(namingSchemeProblems('ticket-count}')).toHaveLength(1);
  });

  it('counts the scheme itself against the 100-character channel name, variables as written', () => {
    expect(issuesOf(NamingScheme, `${'漢'.repeat(93)}{count}`)).toEqual([]);
    expect(issuesOf(NamingScheme, `${'漢'.repeat(94)}{count}`)).toEqual([
      { path: '', code: 'too_big', message: 'Must be at most 100 characters (this is 101).' },
    ]);
  });
});

describe('form', () => {
  const question = (patch: Partial<FormQuestion>): FormQuestion => ({
    id: 'q1',
    label: 'Why?',
    style: 'paragraph',
    required: true,
    minLength: 0,
    maxLength: 4000,
    placeholder: '',
    ...patch,
  });

  it('takes 0 to 5 questions', () => {
    const five = [1, 2, 3, 4, 5].map((n) => question({ id: `q${n}` }));
    expect(issuesOf(Panel, withValue(panel(), 'form', []))).toEqual([]);
    expect(issuesOf(Panel, withValue(panel(), 'form', five))).toEqual([]);
    expect(issuesOf(Panel, withValue(panel(), 'form', [...five, question({ id: 'q6' })]))).toEqual([
      { path: 'form', code: 'too_big', message: "A form has at most 5 questions (Discord's limit for one modal)." },
    ]);
  });

  it('takes lengths from 0 (minimum) or 1 (maximum) to 4,000', () => {
    expect(issuesOf(FormQuestion, question({ minLength: 4000, maxLength: 4000 }))).toEqual([]);
    expect(issuesOf(Panel, withValue(panel(), 'form.1.maxLength', 4001))).toEqual([
      { path: 'form.1.maxLength', code: 'too_big', message: 'The maximum length must be at most 4,000.' },
    ]);
    expect(issuesOf(Panel, withValue(panel(), 'form.1.maxLength', 0))).toEqual([
      { path: 'form.1.maxLength', code: 'too_small', message: 'The maximum length must be at least 1.' },
    ]);
    expect(issuesOf(Panel, withValue(panel(), 'form.1.minLength', -1))).toEqual([
      { path: 'form.1.minLength', code: 'too_small', message: 'The minimum length must be at least 0.' },
    ]);
  });

  it('refuses a minimum above the maximum, at the minimum', () => {
    expect(issuesOf(FormQuestion, question({ minLength: 100, maxLength: 100 }))).toEqual([]);
    expect(issuesOf(Panel, withValue(panel(), 'form.0.minLength', 101))).toEqual([
      { path: 'form.0.minLength', code: 'custom', message: 'The minimum length (101) is more than the maximum length (100).' },
    ]);
  });

  it('needs each question id once', () => {
    expect(issuesOf(Panel, withValue(panel(), 'form.2.id', 'topic'))).toEqual([
      { path: 'form.2.id', code: 'custom', message: 'Another question of this form has the same id.' },
    ]);
  });
});

describe('support hours', () => {
  const hours = () => panel().supportHours!;

  it('takes IANA time zones Intl knows', () => {
    for (const zone of ['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Asia/Tokyo', 'UTC', 'Etc/GMT+1', 'America/Port-au-Prince']) {
      expect(isTimeZone(zone), zone).toBe(true);
    }
  });

  it('refuses unknown zones, offsets and other casing, naming the value', () => {
    for (const zone of ['Mars/Olympus', 'Europe/Berlinn', '+01:00', 'europe/berlin', 'CEST+2', '']) {
      expect(issuesOf(SupportHours, { ...hours(), timeZone: zone }), zone).toEqual([
        {
          path: 'timeZone',
          code: 'custom',
          message: `Unknown time zone '${zone}': use a name from the time-zone database such as Europe/Berlin or America/New_York.`,
        },
      ]);
    }
  });

  it('takes HH:MM ranges with 24:00 as the end of the day', () => {
    expect(issuesOf(Panel, withValue(panel(), 'supportHours.hours.sunday', [{ from: '00:00', to: '24:00' }]))).toEqual([]);
    expect(issuesOf(Panel, withValue(panel(), 'supportHours.hours.sunday', [{ from: '9:00', to: '24:01' }]))).toEqual([
      { path: 'supportHours.hours.sunday.0.from', code: 'custom', message: 'The start time must be HH:MM on a 24-hour clock (00:00 to 23:59).' },
      { path: 'supportHours.hours.sunday.0.to', code: 'custom', message: 'The end time must be HH:MM on a 24-hour clock (00:00 to 24:00).' },
    ]);
    expect(issuesOf(Panel, withValue(panel(), 'supportHours.hours.sunday', [{ from: '24:00', to: '24:00' }]))).toEqual([
      { path: 'supportHours.hours.sunday.0.from', code: 'custom', message: 'The start time must be HH:MM on a 24-hour clock (00:00 to 23:59).' },
    ]);
  });

  it('needs the end after the start, and ranges of one day apart', () => {
    expect(issuesOf(Panel, withValue(panel(), 'supportHours.hours.tuesday', [{ from: '22:00', to: '02:00' }]))).toEqual([
      {
        path: 'supportHours.hours.tuesday.0.to',
        code: 'custom',
        message: 'The end (02:00) must be after the start (22:00). For hours past midnight, add a range on the next day.',
      },
    ]);
    const overlapping = [{ from: '09:00', to: '12:00' }, { from: '12:00', to: '14:00' }, { from: '11:59', to: '13:00' }];
    expect(issuesOf(Panel, withValue(panel(), 'supportHours.hours.tuesday', overlapping))).toEqual([
      { path: 'supportHours.hours.tuesday.2.from', code: 'custom', message: 'This range overlaps 09:00-12:00 on the same day.' },
    ]);
  });

  it('needs at least one opening range in the week', () => {
    const closed = Object.fromEntries(Object.keys(hours().hours).map((day) => [day, []]));
    expect(issuesOf(Panel, withValue(panel(), 'supportHours.hours', closed))).toEqual([
      {
        path: 'supportHours.hours',
        code: 'custom',
        message: 'Support hours need at least one opening range; to take tickets at any time, turn support hours off.',
      },
    ]);
  });
});

describe('panel limits and roles', () => {
  it('takes a per-user limit of 1 to 10 and a per-panel limit of 1 to 500', () => {
    expect(issuesOf(Panel, withValue(panel(), 'perUserLimit', 10))).toEqual([]);
    expect(issuesOf(Panel, withValue(panel(), 'perUserLimit', 11))).toEqual([
      { path: 'perUserLimit', code: 'too_big', message: 'The limit per user can be at most 10.' },
    ]);
    expect(issuesOf(Panel, withValue(panel(), 'perUserLimit', 0))).toEqual([
      { path: 'perUserLimit', code: 'too_small', message: 'The limit per user must be at least 1.' },
    ]);
    expect(issuesOf(Panel, withValue(panel(), 'perPanelLimit', 500))).toEqual([]);
    expect(issuesOf(Panel, withValue(panel(), 'perPanelLimit', 501))).toEqual([
      { path: 'perPanelLimit', code: 'too_big', message: 'The limit for this panel can be at most 500.' },
    ]);
  });

  it('checks role ids and flags a role listed twice', () => {
    const validPanel = panel();
    expect(issuesOf(Panel, withValue(validPanel, 'pingRoleIds', [...validPanel.pingRoleIds, 'everyone']))).toEqual([
      { path: 'pingRoleIds.1', code: 'invalid_format', message: 'must be a Discord id (17 to 20 digits)' },
    ]);
    expect(issuesOf(Panel, withValue(validPanel, 'supportRoleIds', [...validPanel.supportRoleIds, validPanel.supportRoleIds[0]]))).toEqual([
      { path: 'supportRoleIds.2', code: 'custom', message: 'This role is already in the list.' },
    ]);
  });

  it('accepts a minimal panel and reports several problems at once', () => {
    expect(issuesOf(Panel, minimalPanel('p1'))).toEqual([]);
    const broken = withValue(withValue(minimalPanel('p1'), 'button.label', 'x'.repeat(81)), 'namingScheme', '{nope}');
    expect(issuesOf(Panel, broken).map((i) => i.path)).toEqual(['button.label', 'namingScheme']);
  });
});

describe('multi-panel on its own', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);

  it('offers 2 to 25 panels in a select menu', () => {
    expect(issuesOf(MultiPanel, { ...multi(), panelIds: ids(2) })).toEqual([]);
    expect(issuesOf(MultiPanel, { ...multi(), panelIds: ids(25) })).toEqual([]);
    expect(issuesOf(MultiPanel, { ...multi(), panelIds: ids(1) })).toEqual([
      { path: 'panelIds', code: 'too_small', message: 'A select menu offers 2 to 25 panels (this has 1).' },
    ]);
    expect(issuesOf(MultiPanel, { ...multi(), panelIds: ids(26) })).toEqual([
      { path: 'panelIds', code: 'too_big', message: 'A select menu offers 2 to 25 panels (this has 26).' },
    ]);
  });

  it('offers 1 to 25 panels as buttons (5 rows of 5)', () => {
    const buttons = { ...multi(), mode: 'buttons' as const };
    expect(issuesOf(MultiPanel, { ...buttons, panelIds: ids(1) })).toEqual([]);
    expect(issuesOf(MultiPanel, { ...buttons, panelIds: ids(25) })).toEqual([]);
    expect(issuesOf(MultiPanel, { ...buttons, panelIds: [] })).toEqual([
      { path: 'panelIds', code: 'too_small', message: 'Buttons offer 1 to 25 panels, 5 to a row in 5 rows (this has 0).' },
    ]);
    expect(issuesOf(MultiPanel, { ...buttons, panelIds: ids(26) })).toEqual([
      { path: 'panelIds', code: 'too_big', message: 'Buttons offer 1 to 25 panels, 5 to a row in 5 rows (this has 26).' },
    ]);
  });

  it('offers each panel once and limits the placeholder to 150', () => {
    expect(issuesOf(MultiPanel, { ...multi(), panelIds: ['a', 'b', 'a'] })).toEqual([
      { path: 'panelIds.2', code: 'custom', message: 'This panel is already offered by this multi-panel.' },
    ]);
    expect(issuesOf(MultiPanel, { ...multi(), selectPlaceholder: textOf('👩‍👩‍👧', 150) })).toEqual([]);
    expect(issuesOf(MultiPanel, { ...multi(), selectPlaceholder: textOf('👩‍👩‍👧', 151) })).toEqual([
      { path: 'selectPlaceholder', code: 'too_big', message: 'Must be at most 150 characters (this is 151).' },
    ]);
  });
});
