/** Currencies Paddle counts in whole units (no minor unit). */
const ZERO_DECIMAL = new Set(['JPY', 'KRW']);

export function exponentOf(currency: string): number {
  return ZERO_DECIMAL.has(currency) ? 0 : 2;
}

/** An amount in major units (4.99) as Paddle's minor-unit integer (499). */
export function toMinor(amount: number, currency: string): number {
  return Math.round(amount * 10 ** exponentOf(currency));
}

/** A minor-unit amount for people: `$4.99`, `€10.00`, `¥500`. */
export function formatMinor(minor: number, currency: string): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 10 ** exponentOf(currency));
}
