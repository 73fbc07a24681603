import type { KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { FormBody } from '../../kit/body';
import type { CardField } from '../../kit/cards';
import { type CardValues, cardholderField, cardNumberFields, cardValuesOf, checkCardValues, EMAIL, emailProblem, errorSummary, field, prefilledCard, testCardsList } from '../../kit/form';
import { escapeHtml, jsonBlock } from '../../kit/html';
import { originOf, param, sameOrigin, sendPage } from '../../kit/http';
import { page } from '../../kit/page';
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

interface FormValues extends CardValues {
  email: string;
}

const FIELD_ORDER: CardField[] = ['email', 'cardholder_name', 'card_number', 'expiry', 'cvc'];

function totalOf(lines: CheckoutLine[]): number {
  return lines.reduce((t, l) => t + l.product.unitMinor * l.quantity, 0);
}

function summaryHtml(lines: CheckoutLine[]): string {
  const currency = lines[0]!.product.currency;
  const items = lines
    .map(
      (checkoutLine) =>
        `<li><span>${escapeHtml(checkoutLine.product.display)}${checkoutLine.quantity > 1 ? ` × ${checkoutLine.quantity}` : ''}</span><span>${escapeHtml(display(checkoutLine.product.unitMinor * checkoutLine.quantity, currency))} / ${escapeHtml(intervalLabel(checkoutLine.product.intervalUnit, checkoutLine.product.intervalLength))}</span></li>`,
    )
    .join('');
  return `<section class="card" aria-labelledby="summary-title">
<p class="sandbox">Sandbox: no real payment</p>
<h1 id="summary-title">Your order</h1>
<ul class="lines" aria-label="Items">${items}</ul>
<p class="total"><span>Due today</span><span>${escapeHtml(display(totalOf(lines), currency))}</span></p>
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
  const body = `<section class="card"><p class="sandbox">Sandbox checkout</p><h1>${escapeHtml(heading)}</h1><div class="alert" role="alert">${escapeHtml(detail)}</div>${CLOSE_BUTTON}</section>`;
  return sendPage(reply, status, pageFor(session, heading, body));
}

function formPage(reply: FastifyReply, status: number, session: CheckoutSession, values: FormValues, errors: Partial<Record<CardField, string>>, alert: string | null) {
  const summary = errorSummary(FIELD_ORDER, errors, alert);
  const total = display(totalOf(session.lines), session.lines[0]!.product.currency);
  const body = `${summaryHtml(session.lines)}
<section class="card" aria-labelledby="pay-title">
<h2 id="pay-title">Payment details</h2>
${summary.html}
<form id="pay" method="post" action="popup" novalidate>
<input type="hidden" name="session" value="${escapeHtml(session.id)}">
${field('email', 'Email', values.email, errors, 'type="email" autocomplete="email" required maxlength="320"')}
${cardholderField(values, errors)}
${cardNumberFields(values, errors)}
<button type="submit">Pay ${escapeHtml(total)}</button>
</form>
${testCardsList()}
</section>`;
  const title = alert ? `${alert} – Checkout` : summary.count ? 'Error – Checkout' : 'Checkout';
  return sendPage(reply, status, pageFor(session, title, body));
}

function successPage(reply: FastifyReply, session: CheckoutSession) {
  const result = session.result!;
  const body = `<section class="card" aria-labelledby="done-title">
<p class="sandbox">Sandbox: no real payment</p>
<div class="ok" role="status"><h1 id="done-title">Payment complete</h1>
<p>Thank you! Your order is complete and your subscription is active.</p></div>
<dl><dt>Order</dt><dd><code>${escapeHtml(result.reference)}</code></dd></dl>
${CLOSE_BUTTON}
</section>
${jsonBlock('fastspring-event', { name: 'order.complete', data: { id: result.orderId, reference: result.reference } })}`;
  return sendPage(reply, 200, pageFor(session, 'Payment complete', body));
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
    const values: FormValues = { email: session.email ?? '', ...prefilledCard(engine.now()) };
    return formPage(reply, 200, session, values, {}, null);
  });

  app.post('/popup', async (req, reply) => {
    if (!sameOrigin(req)) return problemPage(reply, 403, 'Checkout refused', 'The payment form must be sent from this checkout page.');
    const form = req.body instanceof FormBody ? req.body : null;
    if (!form) return problemPage(reply, 415, 'Checkout refused', 'The payment form must be sent as application/x-www-form-urlencoded.');
    const session = engine.checkoutSession(form.get('session') ?? '');
    if (!session) return problemPage(reply, 410, 'This checkout has expired', 'Close it and open the checkout again to pay.');
    if (session.result) return successPage(reply, session);
    const values: FormValues = { email: (form.get('email') ?? '').trim(), ...cardValuesOf(form) };
    const checked = checkCardValues(values, engine.now());
    const errors = checked.ok ? {} : { ...checked.errors };
    const emailError = emailProblem(values.email, 320);
    if (emailError) errors.email = emailError;
    if (!checked.ok || Object.keys(errors).length > 0) return formPage(reply, 400, session, values, errors, null);
    if (checked.declined) return formPage(reply, 402, session, values, {}, 'Your card was declined. Try another card.');
    engine.purchase(session, { email: values.email, name: values.cardholder_name, card: checked.card });
    return successPage(reply, session);
  });
}
