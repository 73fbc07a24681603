import type { FormBody } from './body';
import { type CardCheck, checkCard, groupDigits, TEST_CARDS } from './cards';
import { escapeHtml } from './html';

/** Field name → its problem, shown under the field and in the summary at the top of the form. */
export type FieldErrors<Name extends string> = Partial<Record<Name, string>>;

/** The card form's values as typed (redisplayed as they were when the form has problems). */
export interface CardValues {
  card_number: string;
  expiry: string;
  cvc: string;
  cardholder_name: string;
}

export const EMAIL = /^[^\s@<>()[\]\\,;:"]{1,64}@[^\s@<>()[\]\\,;:"]{1,255}\.[^\s@<>()[\]\\,;:".]{2,63}$/;

/** A labelled input; its hint and its problem are tied to it with `aria-describedby`. */
export function field<Name extends string>(name: Name, label: string, value: string, errors: FieldErrors<Name>, attrs: string, hint?: string): string {
  const error = errors[name];
  const described = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return `<div>
<label for="${name}">${escapeHtml(label)}</label>
<input id="${name}" name="${name}" value="${escapeHtml(value)}" ${attrs}${error ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>
${hint ? `<p class="hint" id="${name}-hint">${escapeHtml(hint)}</p>` : ''}${error ? `<p class="field-error" id="${name}-error">${escapeHtml(error)}</p>` : ''}
</div>`;
}

/**
 * The alert at the top of a form (focused by the page script): the `alert` text when given, else a
 * list of links to the fields with problems in `order`, else nothing. `count` is the number of fields.
 */
export function errorSummary<Name extends string>(order: readonly Name[], errors: FieldErrors<Name>, alert: string | null): { html: string; count: number } {
  const problems = order.filter((name) => errors[name]);
  const html = alert
    ? `<div class="alert" id="problems" role="alert" tabindex="-1"><strong>${escapeHtml(alert)}</strong></div>`
    : problems.length > 0
      ? `<div class="alert" id="problems" role="alert" tabindex="-1"><strong>Please correct ${problems.length === 1 ? 'this field' : 'these fields'}:</strong><ul>${problems.map((name) => `<li><a href="#${name}">${escapeHtml(errors[name]!)}</a></li>`).join('')}</ul></div>`
      : '';
  return { html, count: problems.length };
}

export function cardNumberFields(values: CardValues, errors: FieldErrors<keyof CardValues>): string {
  return `${field('card_number', 'Card number', values.card_number, errors, 'inputmode="numeric" autocomplete="cc-number" required maxlength="23"')}
<div class="row">
${field('expiry', 'Expiry date', values.expiry, errors, 'autocomplete="cc-exp" required maxlength="7" placeholder="MM/YY"', 'MM/YY')}
${field('cvc', 'Security code (CVC)', values.cvc, errors, 'inputmode="numeric" autocomplete="cc-csc" required maxlength="4"')}
</div>`;
}

export function cardholderField(values: CardValues, errors: FieldErrors<keyof CardValues>): string {
  return field('cardholder_name', 'Name on card (optional)', values.cardholder_name, errors, 'autocomplete="cc-name" maxlength="200"');
}

/** The test cards under the form, so a tester needs no other document. */
export function testCardsList(): string {
  const cards = TEST_CARDS.map((card) => `<li><code>${groupDigits(card.number)}</code>: ${escapeHtml(card.label)}</li>`).join('');
  return `<h2 class="muted">Test cards</h2>
<ul class="tests">${cards}<li>Any future expiry (MM/YY) and any 3 or 4 digit CVC.</li></ul>`;
}

/** What a fresh form shows: the first test card, December three years on, CVC 123. */
export function prefilledCard(nowMs: number): CardValues {
  const expiry = `12/${String((new Date(nowMs).getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
  return { card_number: groupDigits(TEST_CARDS[0].number), expiry, cvc: '123', cardholder_name: '' };
}

export function cardValuesOf(form: FormBody): CardValues {
  return {
    card_number: form.get('card_number') ?? '',
    expiry: form.get('expiry') ?? '',
    cvc: form.get('cvc') ?? '',
    cardholder_name: form.get('cardholder_name') ?? '',
  };
}

/** Empty or malformed email problems (`maxLength` is the provider's limit), else undefined. */
export function emailProblem(email: string, maxLength: number): string | undefined {
  if (email === '') return 'Enter your email address.';
  if (email.length > maxLength || !EMAIL.test(email)) return 'Enter a valid email address, e.g. name@example.com.';
  return undefined;
}

export function checkCardValues(values: CardValues, nowMs: number): CardCheck {
  return checkCard({ number: values.card_number, expiry: values.expiry, cvc: values.cvc, name: values.cardholder_name }, nowMs);
}
