import { describe, expect, it } from 'vitest';
import * as limits from './limits';
import { discordLength } from './limits';
import { COUNTING_UNITS, textOf } from './test-fixtures';

describe('discordLength counts Unicode code points, as Discord does', () => {
  it('counts an astral emoji once, where JavaScript length counts two units', () => {
    expect('😀'.length).toBe(2);
    expect(discordLength('😀')).toBe(1);
    expect(discordLength('hi 😀!')).toBe(5);
  });

  it('counts a ZWJ family emoji as its code points (5), not as one glyph and not as 8 units', () => {
    const family = '👩‍👩‍👧';
    expect(family.length).toBe(8);
    expect(discordLength(family)).toBe(5);
  });

  it('counts CJK, flags, keycaps and a lone surrogate like Python len()', () => {
    expect(discordLength('漢字かな한글')).toBe(6);
    expect(discordLength('🇩🇪')).toBe(2);
    expect(discordLength('1️⃣')).toBe(3);
    expect(discordLength('\uD800')).toBe(1);
    expect(discordLength('')).toBe(0);
  });

  it('equals [...text].length, what the dashboard counter and the sandbox use', () => {
    for (const text of ['abc', '😀😀', '👩‍👩‍👧 family', '漢字', 'e\u0301', '🏴󠁧󠁢󠁥󠁮󠁧󠁿', '\uDC00x\uD83D']) {
      expect(discordLength(text)).toBe([...text].length);
    }
  });

  it('builds boundary strings of exactly n code points from every counting unit', () => {
    for (const unit of COUNTING_UNITS) {
      expect(discordLength(textOf(unit, 256))).toBe(256);
      expect(discordLength(textOf(unit, 257))).toBe(257);
    }
  });
});

describe("Discord's documented limits", () => {
  it('has the values of the Discord documentation', () => {
    expect({ ...limits, discordLength: undefined }).toEqual({
      discordLength: undefined,
      MESSAGE_CONTENT_MAX: 2000,
      MESSAGE_EMBEDS_MAX: 10,
      MESSAGE_ACTION_ROWS_MAX: 5,
      ACTION_ROW_BUTTONS_MAX: 5,
      ACTION_ROW_SELECTS_MAX: 1,
      EMBED_TITLE_MAX: 256,
      EMBED_DESCRIPTION_MAX: 4096,
      EMBED_FIELDS_MAX: 25,
      EMBED_FIELD_NAME_MAX: 256,
      EMBED_FIELD_VALUE_MAX: 1024,
      EMBED_FOOTER_TEXT_MAX: 2048,
      EMBED_AUTHOR_NAME_MAX: 256,
      EMBEDS_TOTAL_MAX: 6000,
      BUTTON_LABEL_MAX: 80,
      CUSTOM_ID_MIN: 1,
      CUSTOM_ID_MAX: 100,
      SELECT_OPTIONS_MAX: 25,
      SELECT_PLACEHOLDER_MAX: 150,
      SELECT_OPTION_LABEL_MAX: 100,
      SELECT_OPTION_VALUE_MAX: 100,
      SELECT_OPTION_DESCRIPTION_MAX: 100,
      MODAL_TITLE_MAX: 45,
      MODAL_TEXT_INPUTS_MAX: 5,
      TEXT_INPUT_LABEL_MAX: 45,
      TEXT_INPUT_PLACEHOLDER_MAX: 100,
      TEXT_INPUT_VALUE_MAX: 4000,
      MODAL_CUSTOM_ID_MAX: 100,
      CHANNEL_NAME_MIN: 1,
      CHANNEL_NAME_MAX: 100,
    });
  });
});
