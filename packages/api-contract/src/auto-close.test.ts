import { describe, expect, it } from 'vitest';
import { autoCloseDue, autoCloseReason, effectiveAutoClose, HOUR_MS } from './auto-close';
import { type AutoCloseRules, defaultAutoCloseRules } from './server-config/automation';

const RULES: AutoCloseRules = { memberSilentHours: 24, staffSilentHours: 48, onOpenerLeave: true, warningHours: 2, warningMessage: '' };
const OPENED = Date.parse('2026-03-02T08:00:00Z');
const hours = (count: number) => OPENED + count * HOUR_MS;

describe('autoCloseDue', () => {
  it('waits for staff from the opening while nobody wrote', () => {
    expect(autoCloseDue(RULES, { openedAt: OPENED, memberAt: null, staffAt: null, keptOpenAt: null })).toEqual({ rule: 'staff_silent', at: hours(48), warnAt: hours(46) });
  });

  it('waits for staff from the member’s last message, and for the member from staff’s last', () => {
    expect(autoCloseDue(RULES, { openedAt: OPENED, memberAt: hours(1), staffAt: null, keptOpenAt: null })).toMatchObject({ rule: 'staff_silent', at: hours(49) });
    expect(autoCloseDue(RULES, { openedAt: OPENED, memberAt: hours(3), staffAt: hours(2), keptOpenAt: null })).toMatchObject({ rule: 'staff_silent', at: hours(51) });
    expect(autoCloseDue(RULES, { openedAt: OPENED, memberAt: hours(1), staffAt: hours(2), keptOpenAt: null })).toEqual({ rule: 'member_silent', at: hours(26), warnAt: hours(24) });
  });

  it('counts from a later Keep open, never from an earlier one', () => {
    expect(autoCloseDue(RULES, { openedAt: OPENED, memberAt: hours(1), staffAt: hours(2), keptOpenAt: hours(5) })).toMatchObject({ at: hours(29) });
    expect(autoCloseDue(RULES, { openedAt: OPENED, memberAt: hours(1), staffAt: hours(2), keptOpenAt: hours(1.5) })).toMatchObject({ at: hours(26) });
  });

  it('is null when the rule that applies is off, and has no warning at 0 hours', () => {
    expect(autoCloseDue(defaultAutoCloseRules(), { openedAt: OPENED, memberAt: null, staffAt: null, keptOpenAt: null })).toBeNull();
    expect(autoCloseDue({ ...RULES, memberSilentHours: null }, { openedAt: OPENED, memberAt: hours(1), staffAt: hours(2), keptOpenAt: null })).toBeNull();
    expect(autoCloseDue({ ...RULES, warningHours: 0 }, { openedAt: OPENED, memberAt: null, staffAt: null, keptOpenAt: null })?.warnAt).toBeNull();
  });

  it('scales an hour (the demo bot’s clock)', () => {
    expect(autoCloseDue(RULES, { openedAt: OPENED, memberAt: null, staffAt: null, keptOpenAt: null }, 1000)).toEqual({ rule: 'staff_silent', at: OPENED + 48_000, warnAt: OPENED + 46_000 });
  });
});

describe('effectiveAutoClose and autoCloseReason', () => {
  const own: AutoCloseRules = { ...RULES, memberSilentHours: 1, warningHours: 0 };
  const config = { autoClose: RULES, panels: [{ id: 'support', autoClose: null }, { id: 'sales', autoClose: own }] };

  it('takes the panel’s own rules, else the server’s (also for a panel since removed)', () => {
    expect(effectiveAutoClose(config, 'sales')).toBe(own);
    expect(effectiveAutoClose(config, 'support')).toBe(RULES);
    expect(effectiveAutoClose(config, 'gone')).toBe(RULES);
    expect(effectiveAutoClose(config, null)).toBe(RULES);
  });

  it('names the rule in the reason', () => {
    expect(autoCloseReason('member_silent', 24)).toBe('Auto-close (member_silent): no answer from the member for 24 hours.');
    expect(autoCloseReason('staff_silent', 1)).toBe('Auto-close (staff_silent): no answer from staff for 1 hour.');
    expect(autoCloseReason('opener_left', null)).toMatch(/^Auto-close \(opener_left\): /);
  });
});
