import type { KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { FormBody } from '../../discord/body';
import { type CardField, checkCard, groupDigits, TEST_CARDS } from '../paddle/card';
import { originOf, param, sameOrigin, sendPage } from '../paddle/http';
import { h, jsonBlock, page } from '../paddle/pages';
import { type CheckoutLine, CheckoutProblem, type CheckoutSession, type FastspringEngine, MAX_TAGS_JSON } from './engine';
import { display, intervalLabel } from './format';
import { POPUP_SCRIPT } from './popup-script';
import { openSecurePayload } from './secure';

export interface CheckoutContext {
  engine: FastspringEngine;
  storefront: string;
  /** The store's public key for secure payloads (null: `fastspring.builder.secure()` is refused). */
  securePublicKey: KeyObject | null;
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]{1,64}@[^\s@<>()[\]\\,;:"]{1,255}\.[^\s@<>()[\]\\,;:".]{2,63}$/;

/** `tickety.test.onfastspring.com/popup-tickety`, without a scheme or a trailing slash. */
export function normalizeStorefront(value: string): string {
  return value
    .trim()
    .replace(/^https?:\/\//, '')
    .replace(/\/+$/, '');
}

function parseJson(text: string | undefined, what: string): unknown {
  if (text === undefined || text === '') return undefined;
  if (text.length > MAX_TAGS_JSON) throw new CheckoutProblem(`${what} is too long.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new CheckoutProblem(`${what} is not valid JSON.`);
  }
}

interface FormValues {
  email: string;
  cardholder_name: string;
  card_number: string;
  expiry: string;
  cvc: string;
}

const FIELD_ORDER: CardField[] = ['email', 'cardholder_name', 'card_number', 'expiry', 'cvc'];

function field(name: CardField, label: string, value: string, errors: Partial<Record<CardField, string>>, attrs: string, hint?: string): string {
  const error = errors[name];
  const described = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return `<div>
<label for="${name}">${h(label)}</label>
<input id="${name}" name="${name}" value="${h(value)}" ${attrs}${error ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>
${hint ? `<p class="hint" id="${name}-hint">${h(hint)}</p>` : ''}${error ? `<p class="field-error" id="${name}-error">${h(error)}</p>` : ''}
</div>`;
}

function totalOf(lines: CheckoutLine[]): number {
  return lines.reduce((t, l) => t + l.product.unitMinor * l.quantity, 0);
}

function summaryHtml(lines: CheckoutLine[]): string {
  const currency = lines[0]!.product.currency;
  const items = lines
    .map(
      (l) =>
        `<li><span>${h(l.product.display)}${l.quantity > 1 ? ` × ${l.quantity}` : ''}</span><span>${h(display(l.product.unitMinor * l.quantity, currency))} / ${h(intervalLabel(l.product.intervalUnit, l.product.intervalLength))}</span></li>`,
    )
    .join('');
  return `<section class="card" aria-labelledby="summary-title">
<p class="sandbox">Sandbox: no real payment</p>
<h1 id="summary-title">Your order</h1>
<ul class="lines" aria-label="Items">${items}</ul>
<p class="total"><span>Due today</span><span>${h(display(totalOf(lines), currency))}</span></p>
<p class="muted">Renews automatically until you cancel. Manage it from your account page.</p>
</section>`;
}

function pageFor(session: CheckoutSession | null, title: string, body: string) {
  return page({
    title,
    body,
    scriptPath: 'popup.js',
    frameAncestors: session?.parentOrigin ? [session.parentOrigin] : [],
    bodyAttributes: session?.parentOrigin ? { 'data-parent-origin': session.parentOrigin } : {},
  });
}

const CLOSE_BUTTON = '<p><button type="button" class="secondary" data-close>Close</button></p>';

function problemPage(reply: FastifyReply, status: number, heading: string, detail: string, session: CheckoutSession | null = null) {
  const body = `<section class="card"><p class="sandbox">Sandbox checkout</p><h1>${h(heading)}</h1><div class="alert" role="alert">${h(detail)}</div>${CLOSE_BUTTON}</section>`;
  return sendPage(reply, status, pageFor(session, heading, body));
}

function formPage(reply: FastifyReply, status: number, session: CheckoutSession, values: FormValues, errors: Partial<Record<CardField, string>>, alert: string | null) {
  const problems = FIELD_ORDER.filter((f) => errors[f]);
  const alertHtml = alert
    ? `<div class="alert" id="problems" role="alert" tabindex="-1"><strong>${h(alert)}</strong></div>`
    : problems.length > 0
      ? `<div class="alert" id="problems" role="alert" tabindex="-1"><strong>Please correct ${problems.length === 1 ? 'this field' : 'these fields'}:</strong><ul>${problems.map((f) => `<li><a href="#${f}">${h(errors[f]!)}</a></li>`).join('')}</ul></div>`
      : '';
  const cards = TEST_CARDS.map((c) => `<li><code>${groupDigits(c.number)}</code>: ${h(c.label)}</li>`).join('');
  const total = display(totalOf(session.lines), session.lines[0]!.product.currency);
  const body = `${summaryHtml(session.lines)}
<section class="card" aria-labelledby="pay-title">
<h2 id="pay-title">Payment details</h2>
${alertHtml}
<form id="pay" method="post" action="popup" novalidate>
<input type="hidden" name="session" value="${h(session.id)}">
${field('email', 'Email', values.email, errors, 'type="email" autocomplete="email" required maxlength="320"')}
${field('cardholder_name', 'Name on card (optional)', values.cardholder_name, errors, 'autocomplete="cc-name" maxlength="200"')}
${field('card_number', 'Card number', values.card_number, errors, 'inputmode="numeric" autocomplete="cc-number" required maxlength="23"')}
<div class="row">
${field('expiry', 'Expiry date', values.expiry, errors, 'autocomplete="cc-exp" required maxlength="7" placeholder="MM/YY"', 'MM/YY')}
${field('cvc', 'Security code (CVC)', values.cvc, errors, 'inputmode="numeric" autocomplete="cc-csc" required maxlength="4"')}
</div>
<button type="submit">Pay ${h(total)}</button>
</form>
<h2 class="muted">Test cards</h2>
<ul class="tests">${cards}<li>Any future expiry (MM/YY) and any 3 or 4 digit CVC.</li></ul>
</section>`;
  const title = alert ? `${alert} – Checkout` : problems.length ? 'Error – Checkout' : 'Checkout';
  return sendPage(reply, status, pageFor(session, title, body));
}

function successPage(reply: FastifyReply, session: CheckoutSession) {
  const result = session.result!;
  const body = `<section class="card" aria-labelledby="done-title">
<p class="sandbox">Sandbox: no real payment</p>
<div class="ok" role="status"><h1 id="done-title">Payment complete</h1>
<p>Thank you! Your order is complete and your subscription is active.</p></div>
<dl><dt>Order</dt><dd><code>${h(result.reference)}</code></dd></dl>
${CLOSE_BUTTON}
</section>
${jsonBlock('fastspring-event', { name: 'order.complete', data: { id: result.orderId, reference: result.reference } })}`;
  return sendPage(reply, 200, pageFor(session, 'Payment complete', body));
}

function defaultExpiry(nowMs: number): string {
  const d = new Date(nowMs);
  return `12/${String((d.getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
}

/** GET /popup (the popup checkout the builder frames), POST /popup (its form), GET /popup.js. */
export function checkoutRoutes(app: FastifyInstance, ctx: CheckoutContext): void {
  const { engine } = ctx;
  const expected = normalizeStorefront(ctx.storefront);

  app.get('/popup.js', async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(POPUP_SCRIPT),
  );

  app.get('/popup', async (req, reply) => {
    const storefront = param(req, 'storefront') ?? '';
    if (normalizeStorefront(storefront) !== expected) {
      return problemPage(
        reply,
        403,
        'Checkout refused',
        storefront ? `The storefront "${storefront}" is not this sandbox's storefront (${ctx.storefront}): check data-storefront.` : 'Open the checkout with fastspring.builder.checkout().',
      );
    }
    let lines: CheckoutLine[];
    let tags: Record<string, unknown> = {};
    let secureEmail: string | null = null;
    try {
      let products = parseJson(param(req, 'products'), 'products');
      const parsed = parseJson(param(req, 'tags'), 'tags');
      if (parsed !== undefined && parsed !== null) {
        if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new CheckoutProblem('tags must be a JSON object.');
        tags = parsed as Record<string, unknown>;
      }
      // fastspring.builder.secure(): the store's own session, decrypted with its public key. Its
      // products replace the cart's (`reset`) or join them; its tags win over the browser's, which
      // still reach the order (builder.tag() works beside a secure payload: no store may trust them).
      const securePayload = param(req, 'secure_payload');
      const secureKey = param(req, 'secure_key');
      if (securePayload !== undefined || secureKey !== undefined) {
        const secure = openSecurePayload(ctx.securePublicKey, securePayload ?? '', secureKey ?? '');
        const cart = Array.isArray(products) ? products : [];
        products = secure.products === null ? cart : secure.reset ? secure.products : [...cart, ...secure.products];
        tags = { ...tags, ...secure.tags };
        secureEmail = secure.email;
      }
      lines = engine.lines(products);
      if (JSON.stringify(tags).length > MAX_TAGS_JSON) throw new CheckoutProblem('tags is too long.');
    } catch (err) {
      if (err instanceof CheckoutProblem) return problemPage(reply, 400, 'Checkout could not open', err.message);
      throw err;
    }
    const email = secureEmail ?? param(req, 'email');
    const session = engine.openCheckout({
      lines,
      tags,
      email: email && email.length <= 320 && EMAIL.test(email) ? email : null,
      parentOrigin: originOf(param(req, 'parent_origin')),
    });
    const values: FormValues = { email: session.email ?? '', cardholder_name: '', card_number: groupDigits(TEST_CARDS[0].number), expiry: defaultExpiry(engine.now()), cvc: '123' };
    return formPage(reply, 200, session, values, {}, null);
  });

  app.post('/popup', async (req, reply) => {
    if (!sameOrigin(req)) return problemPage(reply, 403, 'Checkout refused', 'The payment form must be sent from this checkout page.');
    const form = req.body instanceof FormBody ? req.body : null;
    if (!form) return problemPage(reply, 415, 'Checkout refused', 'The payment form must be sent as application/x-www-form-urlencoded.');
    const session = engine.checkoutSession(form.get('session') ?? '');
    if (!session) return problemPage(reply, 410, 'This checkout has expired', 'Close it and open the checkout again to pay.');
    if (session.result) return successPage(reply, session);
    const values: FormValues = {
      email: (form.get('email') ?? '').trim(),
      cardholder_name: form.get('cardholder_name') ?? '',
      card_number: form.get('card_number') ?? '',
      expiry: form.get('expiry') ?? '',
      cvc: form.get('cvc') ?? '',
    };
    const checked = checkCard({ number: values.card_number, expiry: values.expiry, cvc: values.cvc, name: values.cardholder_name }, engine.now());
    const errors = checked.ok ? {} : { ...checked.errors };
    if (values.email === '') errors.email = 'Enter your email address.';
    else if (values.email.length > 320 || !EMAIL.test(values.email)) errors.email = 'Enter a valid email address, e.g. name@example.com.';
    if (!checked.ok || Object.keys(errors).length > 0) return formPage(reply, 400, session, values, errors, null);
    if (checked.declined) return formPage(reply, 402, session, values, {}, 'Your card was declined. Try another card.');
    engine.purchase(session, { email: values.email, name: values.cardholder_name, card: checked.card });
    return successPage(reply, session);
  });
}
