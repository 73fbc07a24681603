/** A paid-with card as the providers' answers describe it (no full number is ever kept). */
export interface Card {
  type: 'visa' | 'mastercard';
  last4: string;
  expiry_month: number;
  expiry_year: number;
  cardholder_name: string | null;
}

/** Paddle's sandbox test cards the stand-in knows. */
export const TEST_CARDS = [
  { number: '4242424242424242', type: 'visa', outcome: 'success', label: 'Visa, succeeds' },
  { number: '5555555555554444', type: 'mastercard', outcome: 'success', label: 'Mastercard, succeeds' },
  { number: '4000000000000002', type: 'visa', outcome: 'declined', label: 'Visa, declined' },
] as const;

export type CardField = 'card_number' | 'expiry' | 'cvc' | 'email' | 'cardholder_name';

export type CardCheck =
  | { ok: true; card: Card; declined: boolean }
  | { ok: false; errors: Partial<Record<CardField, string>> };

export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
  name?: string;
}

/** `4242 4242 4242 4242` for people. */
export function groupDigits(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

function luhn(digits: string): boolean {
  let total = 0;
  for (let i = 0; i < digits.length; i++) {
    let days = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      days *= 2;
      if (days > 9) days -= 9;
    }
    total += days;
  }
  return total % 10 === 0;
}

/**
 * Checks a card form against the clock: the number must be one of the test cards, the expiry MM/YY
 * (or MM/YYYY) no earlier than the current month (a card is valid through its expiry month), the
 * CVC 3 or 4 digits. Every field's problem is reported at once.
 */
export function checkCard(input: CardInput, nowMs: number): CardCheck {
  const errors: Partial<Record<CardField, string>> = {};
  const digits = input.number.replace(/[\s-]/g, '');
  const known = TEST_CARDS.find((c) => c.number === digits);
  if (digits === '') errors.card_number = 'Enter the card number.';
  else if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) errors.card_number = 'Enter a valid card number.';
  else if (!known) errors.card_number = 'This sandbox takes the test cards listed below only.';

  let month = 0;
  let year = 0;
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  if (input.expiry.trim() === '') errors.expiry = 'Enter the expiry date (MM/YY).';
  else if (!match) errors.expiry = 'Enter the expiry date as MM/YY, e.g. 12/30.';
  else {
    month = Number(match[1]);
    year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
    const now = new Date(nowMs);
    if (month < 1 || month > 12) errors.expiry = 'The expiry month must be from 01 to 12.';
    else if (year * 12 + month - 1 < now.getUTCFullYear() * 12 + now.getUTCMonth()) errors.expiry = 'The expiry date must be in the future: this card has expired.';
    else if (year > now.getUTCFullYear() + 20) errors.expiry = 'The expiry date is too far in the future.';
  }

  const cvc = input.cvc.trim();
  if (cvc === '') errors.cvc = 'Enter the security code (CVC).';
  else if (!/^\d{3,4}$/.test(cvc)) errors.cvc = 'The security code (CVC) is 3 or 4 digits.';

  const name = input.name?.trim() ?? '';
  if (name.length > 200) errors.cardholder_name = 'The name on the card is too long.';

  if (Object.keys(errors).length > 0 || !known) return { ok: false, errors };
  return {
    ok: true,
    declined: known.outcome === 'declined',
    card: { type: known.type, last4: digits.slice(-4), expiry_month: month, expiry_year: year, cardholder_name: name || null },
  };
}
