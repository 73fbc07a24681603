import type { Plan } from '@tickety/api-contract';
import { describe, expect, it } from 'vitest';
import { isPaid, priceFor, yearlySaving } from './plans';
import { TEST_PLANS } from './testing';

const [free, premium] = TEST_PLANS as [Plan, Plan];

describe('plan helpers', () => {
  it('prices per interval, paid plans and the yearly saving', () => {
    expect(priceFor(premium, 'monthly')).toBe(4.99);
    expect(priceFor(premium, 'yearly')).toBe(49.99);
    expect(isPaid(free)).toBe(false);
    expect(isPaid(premium)).toBe(true);
    expect(yearlySaving(premium)).toBe(16);
    expect(yearlySaving(free)).toBeNull();
    expect(yearlySaving({ ...premium, priceYearly: 59.88 })).toBeNull();
    expect(yearlySaving({ ...premium, priceYearly: null })).toBeNull();
  });
});
