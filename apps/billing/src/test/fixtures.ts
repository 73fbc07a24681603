import type { BillingSubscription } from '@tickety/api-contract';
import { TEST_PLANS } from '@tickety/shared/testing';

/** The plan catalogue fixture (one definition, in @tickety/shared/testing). */
export const PLANS = TEST_PLANS;

/** A Paddle subscription as `/api/billing` answers it. */
export function subscription(over: Partial<BillingSubscription> = {}): BillingSubscription {
  return {
    provider: 'paddle',
    id: 'sub_01',
    userId: '1000000000000000001',
    planId: 'premium',
    planName: 'Premium',
    interval: 'month',
    status: 'active',
    premium: true,
    graceUntil: null,
    currentPeriodEnd: '2026-12-26T10:00:00.000Z',
    cancelAtPeriodEnd: false,
    paymentMethod: 'Visa •••• 4242',
    slots: [{ slot: 1, guildId: '1100000000000000001', guildName: "Ava's Arcade", assignedAt: '2026-11-26T10:00:00.000Z', movableAt: null }],
    actions: ['cancel', 'updatePaymentMethod', 'portal'],
    updatedAt: '2026-11-26T10:00:00.000Z',
    ...over,
  };
}
