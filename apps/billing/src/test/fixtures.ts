import { TEST_PLANS } from '@tickety/shared/testing';

/** The plan catalogue fixture (one definition, in @tickety/shared/testing). */
export const PLANS = TEST_PLANS;
