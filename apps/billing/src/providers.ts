/** The four billing providers (spec §2), by the path segment the shell's route data carries. */
export const PROVIDERS = {
  paddle: { name: 'Paddle', kind: 'card payments through Paddle Billing' },
  fastspring: { name: 'FastSpring', kind: 'payments through FastSpring' },
  discord: { name: 'Discord', kind: "a Discord app subscription, bought in Discord's own store" },
  chargebee: { name: 'Chargebee', kind: 'a subscription billed by Chargebee' },
} as const;

export type ProviderId = keyof typeof PROVIDERS;

export function isProviderId(value: string | undefined): value is ProviderId {
  return value !== undefined && Object.hasOwn(PROVIDERS, value);
}
