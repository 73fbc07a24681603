import type { Panel } from '@tickety/api-contract';
import { describe, expect, it } from 'vitest';
import { panel } from '../../test/config-fixtures';
import { panelIssuesUnchanged } from './panel-issues';

describe('panelIssuesUnchanged (a keystroke need not check the whole configuration)', () => {
  const support = panel('support', 'Support');

  it('holds for a change inside a panel that stays valid', () => {
    expect(panelIssuesUnchanged(support, { ...support, embed: { ...support.embed, title: 'Support, quickly' } })).toBe(true);
    expect(panelIssuesUnchanged(support, support)).toBe(true);
  });

  it('does not hold when the panel gains or loses an issue of its own', () => {
    const tooLong = { ...support, embed: { ...support.embed, title: 'x'.repeat(257) } };
    expect(panelIssuesUnchanged(support, tooLong)).toBe(false);
    expect(panelIssuesUnchanged(tooLong, support)).toBe(false);
    // Both invalid: the message (the count) may differ, so the whole check runs.
    expect(panelIssuesUnchanged(tooLong, { ...tooLong, embed: { ...tooLong.embed, title: 'x'.repeat(258) } })).toBe(false);
  });

  it('does not hold when what the configuration-wide rules read changes: the id, the name, support hours on or off', () => {
    expect(panelIssuesUnchanged(support, { ...support, id: 'billing' })).toBe(false);
    expect(panelIssuesUnchanged(support, { ...support, name: 'Help' })).toBe(false);
    const nine = [{ from: '09:00', to: '17:00' }];
    const hours = { monday: nine, tuesday: nine, wednesday: nine, thursday: nine, friday: nine, saturday: nine, sunday: nine };
    const withHours: Panel = { ...support, supportHours: { timeZone: 'Europe/Berlin', hours, outOfHoursMessage: 'We are closed.' } };
    expect(panelIssuesUnchanged(support, withHours)).toBe(false);
    expect(panelIssuesUnchanged(withHours, support)).toBe(false);
  });
});
