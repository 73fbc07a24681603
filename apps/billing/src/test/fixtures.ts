import { TEST_PLANS, testSubscription } from '@tickety/shared/testing';

/** The plan catalogue fixture (one definition, in @tickety/shared/testing). */
export const PLANS = TEST_PLANS;

/** A Paddle subscription as `/api/billing` answers it (one definition, in @tickety/shared/testing). */
export const subscription = testSubscription;
