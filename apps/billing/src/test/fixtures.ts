import type { Plan } from '@tickety/api-contract';

/** The catalogue as apps/api/config/plans.json ships it (trimmed feature lists). */
export const PLANS: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    priceMonthly: 0,
    priceYearly: 0,
    currency: 'USD',
    highlight: false,
    features: ['3 ticket panels', 'HTML transcripts'],
    limits: { panels: 3, servers: 1 },
  },
  {
    id: 'premium',
    name: 'Premium',
    priceMonthly: 4.99,
    priceYearly: 49.99,
    currency: 'USD',
    highlight: true,
    features: ['Everything in Free', '50 ticket panels and multi-panels', 'Priority support'],
    limits: { panels: 50, servers: 1 },
  },
];
