/** Currencies without minor units (ISO 4217 exponent 0) among those the providers sell in. */
const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX', 'XAF', 'XOF']);

/** A provider's amount in minor units (a string or number of cents) as the currency's major unit. */
export function minorToMajor(minor: string | number, currency: string): number {
  const amount = typeof minor === 'number' ? minor : Number(minor);
  if (!Number.isFinite(amount)) throw new RangeError(`not an amount: ${minor}`);
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? amount : amount / 100;
}
