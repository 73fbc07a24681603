import type { t } from './i18n';

/** A message of this remote's catalogue. */
type MessageKey = Parameters<typeof t>[0];

/**
 * The four billing providers (docs/behaviour.md#screens-and-providers), by the path segment the shell's route data carries. `name` is
 * the product name (never translated); `kind` is the catalogue key of what the provider bills (`buy` the label of its buy button), shown
 * with `t(kind)` when the page renders (the language can change while it is open).
 */
export const PROVIDERS = {
  paddle: { name: 'Paddle', kind: 'providers.paddle.kind', buy: 'providers.paddle.buy' },
  fastspring: { name: 'FastSpring', kind: 'providers.fastspring.kind', buy: 'providers.fastspring.buy' },
  discord: { name: 'Discord', kind: 'providers.discord.kind', buy: 'providers.discord.buy' },
  chargebee: { name: 'Chargebee', kind: 'providers.chargebee.kind', buy: 'providers.chargebee.buy' },
} as const satisfies Record<string, { name: string; kind: MessageKey; buy: MessageKey }>;

/** The order buy buttons show in. */
export const PROVIDER_ORDER = ['paddle', 'fastspring', 'chargebee', 'discord'] as const;

export type ProviderId = keyof typeof PROVIDERS;

export function isProviderId(value: string | undefined): value is ProviderId {
  return value !== undefined && Object.hasOwn(PROVIDERS, value);
}
