import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CHANNELS } from './demo-data';
import { charCount, MESSAGE_LIMITS, validateMessage } from './message-validation';
import { harness, postMessage } from './test-helpers';

let app: FastifyInstance;
beforeAll(async () => {
  // No message bucket to meet: these tests post many messages to one channel.
  app = (await harness({ messageRateLimit: { limit: 10_000 } })).app;
});
afterAll(async () => {
  await app.close();
});

const CHANNEL = DEMO_CHANNELS.avasArcade.support;
/** One character each as Discord counts them, two UTF-16 units (emoji) or one (CJK). */
const EMOJI = '🎫';
const CJK = '票';
const of = (char: string, n: number) => char.repeat(n);

async function accepted(body: object): Promise<void> {
  const res = await postMessage(app, CHANNEL, body);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
}

/** Posts and expects 400 50035 with exactly this error at `path`. */
async function refused(body: object, path: Array<string | number>, code: string, message?: string): Promise<void> {
  const res = await postMessage(app, CHANNEL, body);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
  const json = res.json();
  expect(json).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
  let node = json.errors;
  for (const key of path) node = node?.[String(key)];
  expect(node?._errors, JSON.stringify(json.errors).slice(0, 300)).toEqual([{ code, ...(message ? { message } : { message: expect.any(String) }) }]);
}

const button = (n: number, extra: object = {}) => ({ type: 2, style: 1, label: `B${n}`, custom_id: `b${n}`, ...extra });
const row = (...components: object[]) => ({ type: 1, components });
const select = (extra: object = {}) => ({ type: 3, custom_id: 'pick', options: [{ label: 'One', value: '1' }], ...extra });
const options = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `Option ${i}`, value: `v${i}` }));

test('characters are code points: an emoji or a CJK character is one', () => {
  expect(charCount(of(EMOJI, 3))).toBe(3);
  expect(of(EMOJI, 3).length).toBe(6);
  expect(charCount(of(CJK, 3))).toBe(3);
  expect(charCount('e\u0301')).toBe(2);
});

describe.each([
  ['emoji', EMOJI],
  ['CJK', CJK],
])('limits with %s, at the limit and one over', (_name, ch) => {
  test('content 2000', async () => {
    await accepted({ content: of(ch, 2000) });
    await refused({ content: of(ch, 2001) }, ['content'], 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
  });

  test('embed title 256, description 4096', async () => {
    await accepted({ embeds: [{ title: of(ch, 256), description: of(ch, 4096) }] });
    await refused({ embeds: [{ title: of(ch, 257) }] }, ['embeds', 0, 'title'], 'BASE_TYPE_MAX_LENGTH', 'Must be 256 or fewer in length.');
    await refused({ embeds: [{ description: of(ch, 4097) }] }, ['embeds', 0, 'description'], 'BASE_TYPE_MAX_LENGTH', 'Must be 4096 or fewer in length.');
  });

  test('field name 256, value 1024; footer 2048; author 256', async () => {
    await accepted({ embeds: [{ fields: [{ name: of(ch, 256), value: of(ch, 1024) }], footer: { text: of(ch, 2048) }, author: { name: of(ch, 256) } }] });
    await refused({ embeds: [{ fields: [{ name: 'ok', value: 'ok' }, { name: of(ch, 257), value: 'v' }] }] }, ['embeds', 0, 'fields', 1, 'name'], 'BASE_TYPE_MAX_LENGTH');
    await refused({ embeds: [{ fields: [{ name: 'n', value: of(ch, 1025) }] }] }, ['embeds', 0, 'fields', 0, 'value'], 'BASE_TYPE_MAX_LENGTH', 'Must be 1024 or fewer in length.');
    await refused({ embeds: [{ footer: { text: of(ch, 2049) } }] }, ['embeds', 0, 'footer', 'text'], 'BASE_TYPE_MAX_LENGTH', 'Must be 2048 or fewer in length.');
    await refused({ embeds: [{ author: { name: of(ch, 257) } }] }, ['embeds', 0, 'author', 'name'], 'BASE_TYPE_MAX_LENGTH');
  });

  test('6000 characters across all the embeds', async () => {
    // 4096 + 1904 = 6000 over two embeds.
    await accepted({ embeds: [{ description: of(ch, 4096) }, { description: of(ch, 1648), title: of(ch, 256) }] });
    await refused(
      { embeds: [{ description: of(ch, 4096) }, { description: of(ch, 1648), title: of(ch, 256), footer: { text: ch } }] },
      ['embeds'],
      'MAX_EMBED_SIZE_EXCEEDED',
      'Embed size exceeds maximum size of 6000',
    );
  });

  test('button label 80, custom_id 100; select placeholder 150; option label, value and description 100', async () => {
    await accepted({ components: [row(button(1, { label: of(ch, 80), custom_id: of(ch, 100) }))] });
    await refused({ components: [row(button(1, { label: of(ch, 81) }))] }, ['components', 0, 'components', 0, 'label'], 'BASE_TYPE_MAX_LENGTH', 'Must be 80 or fewer in length.');
    await refused(
      { components: [row(button(1, { custom_id: of(ch, 101) }))] },
      ['components', 0, 'components', 0, 'custom_id'],
      'BASE_TYPE_BAD_LENGTH',
      'Must be between 1 and 100 in length.',
    );
    const option = { label: of(ch, 100), value: of(ch, 100), description: of(ch, 100) };
    await accepted({ components: [row(select({ placeholder: of(ch, 150), options: [option] }))] });
    await refused({ components: [row(select({ placeholder: of(ch, 151) }))] }, ['components', 0, 'components', 0, 'placeholder'], 'BASE_TYPE_MAX_LENGTH');
    for (const key of ['label', 'value', 'description'] as const) {
      await refused(
        { components: [row(select({ options: [{ ...option, [key]: of(ch, 101) }] }))] },
        ['components', 0, 'components', 0, 'options', 0, key],
        key === 'description' ? 'BASE_TYPE_MAX_LENGTH' : 'BASE_TYPE_BAD_LENGTH',
      );
    }
  });
});

describe('counts', () => {
  test('10 embeds, 25 fields', async () => {
    await accepted({ embeds: Array.from({ length: 10 }, (_, i) => ({ title: `E${i}` })) });
    await refused({ embeds: Array.from({ length: 11 }, (_, i) => ({ title: `E${i}` })) }, ['embeds'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
    const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `F${i}`, value: 'v' }));
    await accepted({ embeds: [{ fields: fields(25) }] });
    await refused({ embeds: [{ fields: fields(26) }] }, ['embeds', 0, 'fields'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  });

  test('5 action rows of 5 buttons', async () => {
    const rows = (n: number) => Array.from({ length: n }, (_, r) => row(...Array.from({ length: 5 }, (_, b) => button(r * 5 + b))));
    await accepted({ components: rows(5) });
    await refused({ components: rows(6) }, ['components'], 'BASE_TYPE_MAX_LENGTH', 'Must be 5 or fewer in length.');
    await refused({ components: [row(...Array.from({ length: 6 }, (_, b) => button(b)))] }, ['components', 0, 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
    await refused({ components: [row()] }, ['components', 0, 'components'], 'BASE_TYPE_BAD_LENGTH');
  });

  test('a select menu fills its row: nothing beside it', async () => {
    await accepted({ components: [row(select())] });
    await refused({ components: [row(select(), button(1))] }, ['components', 0, 'components', 1], 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
    await refused({ components: [row(button(1), select())] }, ['components', 0, 'components', 1], 'COMPONENT_LAYOUT_WIDTH_EXCEEDED');
  });

  test('select options 1-25', async () => {
    await accepted({ components: [row(select({ options: options(25) }))] });
    await refused({ components: [row(select({ options: options(26) }))] }, ['components', 0, 'components', 0, 'options'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 25 in length.');
    await refused({ components: [row(select({ options: [] }))] }, ['components', 0, 'components', 0, 'options'], 'BASE_TYPE_BAD_LENGTH');
  });

  test('custom ids are unique in the message, across rows and component kinds', async () => {
    await refused(
      { components: [row(button(1)), row(button(2, { custom_id: 'b1' }))] },
      ['components', 1, 'components', 0, 'custom_id'],
      'COMPONENT_CUSTOM_ID_DUPLICATED',
      'Component custom id cannot be duplicated',
    );
    await refused({ components: [row(button(1, { custom_id: 'pick' })), row(select())] }, ['components', 1, 'components', 0, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED');
    await refused({ components: [row(button(1, { custom_id: '' }))] }, ['components', 0, 'components', 0, 'custom_id'], 'BASE_TYPE_BAD_LENGTH');
    await refused({ components: [row({ type: 2, style: 1, label: 'x' })] }, ['components', 0, 'components', 0, 'custom_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
  });
});

describe('shapes', () => {
  test('link buttons have a url and no custom_id; styles are 1-6', async () => {
    await accepted({ components: [row({ type: 2, style: 5, label: 'Site', url: 'https://tickety.example/' })] });
    await refused({ components: [row({ type: 2, style: 5, label: 'Site' })] }, ['components', 0, 'components', 0, 'url'], 'BASE_TYPE_REQUIRED');
    await refused({ components: [row({ type: 2, style: 5, label: 'Site', url: 'javascript:alert(1)' })] }, ['components', 0, 'components', 0, 'url'], 'URL_TYPE_INVALID_URL');
    await refused({ components: [row({ type: 2, style: 5, label: 'Site', url: 'https://x.example/', custom_id: 'x' })] }, ['components', 0, 'components', 0, 'custom_id'], 'COMPONENT_INVALID_FIELD');
    await refused({ components: [row(button(1, { style: 7 }))] }, ['components', 0, 'components', 0, 'style'], 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2, 3, 4, 5, 6).');
  });

  test('types, colours, urls and timestamps', async () => {
    await refused({ content: 5 }, ['content'], 'STRING_TYPE_CONVERT');
    await refused({ embeds: {} }, ['embeds'], 'LIST_TYPE_CONVERT');
    await refused({ embeds: ['x'] }, ['embeds', 0], 'MODEL_TYPE_CONVERT');
    await refused({ embeds: [{ color: 0x1000000 }] }, ['embeds', 0, 'color'], 'NUMBER_TYPE_MAX');
    await refused({ embeds: [{ url: 'not a url' }] }, ['embeds', 0, 'url'], 'URL_TYPE_INVALID_URL', 'Not a well formed URL.');
    await refused({ embeds: [{ timestamp: 'yesterday' }] }, ['embeds', 0, 'timestamp'], 'DATE_TYPE_CONVERT');
    await refused({ embeds: [{ fields: [{ name: 'n' }] }] }, ['embeds', 0, 'fields', 0, 'value'], 'BASE_TYPE_REQUIRED', 'This field is required');
    await refused({ embeds: [{ image: {} }] }, ['embeds', 0, 'image', 'url'], 'BASE_TYPE_REQUIRED');
    await refused({ components: [{ type: 2, style: 1, label: 'x', custom_id: 'x' }] }, ['components', 0, 'type'], 'BASE_TYPE_CHOICES');
    await refused({ content: 'x', flags: 1 << 15 }, ['flags'], 'SANDBOX_UNSUPPORTED');
  });

  test('every error is reported at once, in the body\'s shape', async () => {
    const res = await postMessage(app, CHANNEL, { content: of('x', 2001), embeds: [{ title: of('x', 257), fields: [{ name: '', value: 'v' }] }] });
    expect(res.json().errors).toEqual({
      content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] },
      embeds: {
        0: {
          title: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 256 or fewer in length.' }] },
          fields: { 0: { name: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } } },
        },
      },
    });
  });

  test('validateMessage alone: limits as constants, and a non-object body', () => {
    expect(MESSAGE_LIMITS).toMatchObject({ content: 2000, embeds: 10, embedTotal: 6000, actionRows: 5, buttonLabel: 80, customId: 100, selectOptions: 25 });
    expect(validateMessage([], 'create')).toMatchObject({ ok: false, body: { code: 50035, errors: { _errors: [{ code: 'MODEL_TYPE_CONVERT' }] } } });
    expect(validateMessage({ content: 'x', flags: 4 | 1 }, 'create')).toEqual({ ok: true, value: { content: 'x', flags: 4 } });
  });
});
