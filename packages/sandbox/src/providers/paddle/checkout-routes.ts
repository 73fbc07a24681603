import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FormBody } from '../../kit/body';
import type { CardField } from '../../kit/cards';
import { type CardValues, cardholderField, cardNumberFields, cardValuesOf, checkCardValues, EMAIL, emailProblem, errorSummary, field, prefilledCard, testCardsList } from '../../kit/form';
import { escapeHtml, jsonBlock } from '../../kit/html';
import { httpUrl, originOf, param, sameOrigin, sendPage } from '../../kit/http';
import { formatMinor } from '../../kit/money';
import { page } from '../../kit/page';
import { CHECKOUT_SCRIPT } from './checkout-script';
import { type CheckoutResult, type CheckoutSession, type LineInput, PaddleApiError, type PaddleEngine } from './engine';
import type { PaddleCard } from './types';

export interface CheckoutContext {
  engine: PaddleEngine;
  clientToken: string;
}

const MAX_CUSTOM_DATA = 10_000;
function parseJson(text: string | undefined, what: string): unknown {
  if (text === undefined || text === '') return undefined;
  if (text.length > MAX_CUSTOM_DATA) throw new RangeError(`${what} is too long.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new RangeError(`${what} is not valid JSON.`);
  }
}

/** The checkout's `custom_data` parameter: an object, or null when absent (RangeError when it is not one). */
function customDataParam(req: FastifyRequest): Record<string, unknown> | null {
  const custom = parseJson(param(req, 'custom_data'), 'custom_data');
  if (custom === undefined || custom === null) return null;
  if (typeof custom !== 'object' || Array.isArray(custom)) throw new RangeError('custom_data must be a JSON object.');
  return custom as Record<string, unknown>;
}

function summaryHtml(lines: LineInput[], heading: string, dueMinor: number, note: string): string {
  const currency = lines[0]!.price.currency;
  const total = lines.reduce((t, l) => t + l.price.unitMinor * l.quantity, 0);
  const interval = lines[0]!.price.interval;
  const items = lines
    .map(
      (line) =>
        `<li><span>${escapeHtml(line.price.productName)}${line.quantity > 1 ? ` × ${line.quantity}` : ''} <span class="muted">(${escapeHtml(line.price.interval === 'month' ? 'monthly' : 'yearly')})</span></span><span>${escapeHtml(formatMinor(line.price.unitMinor * line.quantity, currency))} / ${escapeHtml(interval)}</span></li>`,
    )
    .join('');
  return `<section class="card" aria-labelledby="summary-title">
<p class="sandbox">Sandbox: no real payment</p>
<h1 id="summary-title">${escapeHtml(heading)}</h1>
<ul class="lines" aria-label="Items">${items}</ul>
<p class="total"><span>Due today</span><span>${escapeHtml(formatMinor(dueMinor, currency))}</span></p>
<p class="muted">${escapeHtml(note.replace('{total}', formatMinor(total, currency)).replace('{interval}', interval))}</p>
</section>`;
}

interface FormValues extends CardValues {
  email: string;
}

const FIELD_ORDER: CardField[] = ['email', 'card_number', 'expiry', 'cvc', 'cardholder_name'];

function formHtml(session: CheckoutSession, values: FormValues, errors: Partial<Record<CardField, string>>, alert: string | null, submitLabel: string): string {
  const summary = errorSummary(FIELD_ORDER, errors, alert);
  return `<section class="card" aria-labelledby="pay-title">
<h2 id="pay-title">${session.kind === 'purchase' ? 'Payment details' : 'New card'}</h2>
${summary.html}
<form id="pay" method="post" action="checkout" novalidate>
<input type="hidden" name="checkout" value="${escapeHtml(session.id)}">
${session.kind === 'purchase' ? field('email', 'Email', values.email, errors, 'type="email" autocomplete="email" required maxlength="320"') : ''}
${cardNumberFields(values, errors)}
${cardholderField(values, errors)}
<button type="submit">${escapeHtml(submitLabel)}</button>
</form>
${testCardsList()}
</section>`;
}

function itemsData(lines: LineInput[]) {
  return lines.map((line) => ({
    price_id: line.price.id,
    quantity: line.quantity,
    product: { id: line.price.product.id, name: line.price.productName },
    billing_cycle: { interval: line.price.interval, frequency: 1 },
    totals: { total: String(line.price.unitMinor * line.quantity) },
  }));
}

function checkoutData(session: CheckoutSession) {
  const currency = session.lines[0]!.price.currency;
  return {
    id: session.id,
    transaction_id: session.transactionId,
    status: 'draft',
    custom_data: session.customData,
    currency_code: currency,
    customer: { id: null, email: session.email },
    items: itemsData(session.lines),
    totals: { total: String(session.lines.reduce((t, l) => t + l.price.unitMinor * l.quantity, 0)), currency_code: currency },
  };
}

function cardLabel(card: PaddleCard): string {
  return `${card.type === 'visa' ? 'Visa' : 'Mastercard'} •••• ${card.last4}`;
}

function completedData(session: CheckoutSession, result: CheckoutResult) {
  const currency = session.lines[0]!.price.currency;
  return {
    id: session.id,
    transaction_id: result.transactionId,
    status: 'completed',
    custom_data: result.customData,
    currency_code: currency,
    customer: { id: result.customerId, email: result.email },
    subscription_id: result.subscriptionId,
    items: itemsData(session.lines),
    payment: { method_details: { type: 'card', card: { type: result.card.type, last4: result.card.last4 } } },
  };
}

/** Where a page may be framed: the Paddle.js host page's origin given when the checkout was opened. */
function ancestors(session: CheckoutSession | null): string[] {
  return session?.parentOrigin ? [session.parentOrigin] : [];
}

function pageFor(session: CheckoutSession | null, title: string, body: string) {
  return page({
    title,
    body,
    scriptPath: 'checkout.js',
    frameAncestors: ancestors(session),
    bodyAttributes: session?.parentOrigin ? { 'data-parent-origin': session.parentOrigin } : {},
  });
}

function problemPage(reply: FastifyReply, status: number, heading: string, detail: string, session: CheckoutSession | null = null) {
  const body = `<section class="card"><p class="sandbox">Sandbox checkout</p><h1>${escapeHtml(heading)}</h1><div class="alert" role="alert">${escapeHtml(detail)}</div></section>`;
  return sendPage(reply, status, pageFor(session, heading, body));
}

function headingOf(session: CheckoutSession): { heading: string; note: string; submit: string; due: number } {
  const total = session.lines.reduce((t, l) => t + l.price.unitMinor * l.quantity, 0);
  if (session.kind === 'purchase') {
    const currency = session.lines[0]!.price.currency;
    return { heading: `Subscribe to ${session.lines[0]!.price.productName}`, note: 'Then {total} every {interval} until you cancel.', submit: `Pay ${formatMinor(total, currency)}`, due: total };
  }
  return { heading: 'Update your payment method', note: 'Your subscription: {total} every {interval}.', submit: 'Save card', due: 0 };
}

function formPage(reply: FastifyReply, status: number, session: CheckoutSession, values: FormValues, errors: Partial<Record<CardField, string>>, alert: string | null, event: unknown) {
  const { heading, note, submit, due } = headingOf(session);
  const dueMinor = session.kind === 'update' ? session.dueMinor : due;
  const body = `${summaryHtml(session.lines, heading, dueMinor, note)}\n${formHtml(session, values, errors, alert, session.kind === 'update' && dueMinor > 0 ? `Pay ${formatMinor(dueMinor, session.lines[0]!.price.currency)}` : submit)}\n${event ? jsonBlock('paddle-event', event) : ''}`;
  return sendPage(reply, status, pageFor(session, alert ? `${alert} – Checkout` : Object.keys(errors).length ? `Error – ${heading}` : heading, body));
}

function successPage(reply: FastifyReply, session: CheckoutSession, result: CheckoutResult) {
  const back = session.successUrl ? `<p data-unframed><a class="button" href="${escapeHtml(session.successUrl)}">Continue</a></p>` : '';
  const body = `<section class="card" aria-labelledby="done-title">
<p class="sandbox">Sandbox: no real payment</p>
<div class="ok" role="status"><h1 id="done-title">Payment complete</h1>
<p>${session.kind === 'purchase' ? `Thank you! Your subscription to ${escapeHtml(session.lines[0]!.price.productName)} is active.` : 'Your payment method has been updated.'}</p></div>
<dl><dt>Card</dt><dd>${escapeHtml(cardLabel(result.card))}</dd><dt>Email</dt><dd>${escapeHtml(result.email)}</dd><dt>Transaction</dt><dd><code>${escapeHtml(result.transactionId)}</code></dd><dt>Subscription</dt><dd><code>${escapeHtml(result.subscriptionId)}</code></dd></dl>
${back}
</section>
${jsonBlock('paddle-event', { name: 'checkout.completed', data: completedData(session, result) })}`;
  return sendPage(reply, 200, pageFor(session, 'Payment complete', body));
}

/** GET /checkout, POST /checkout and GET /checkout.js. */
export function checkoutRoutes(app: FastifyInstance, ctx: CheckoutContext): void {
  const { engine } = ctx;

  app.get('/checkout.js', async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(CHECKOUT_SCRIPT),
  );

  app.get('/checkout', async (req: FastifyRequest, reply) => {
    const successRaw = param(req, 'success_url');
    const successUrl = httpUrl(successRaw);
    const parentOrigin = originOf(param(req, 'parent_origin'));
    const base = { successUrl, parentOrigin, result: null };
    if (successRaw && !successUrl) return problemPage(reply, 400, 'Checkout could not open', 'success_url must be an absolute http(s) URL.');
    const txnId = param(req, 'txn');
    const token = param(req, 'token');
    const tokenRefused = () =>
      problemPage(
        reply,
        403,
        'Checkout refused',
        token ? 'The client-side token does not match this sandbox: check the token given to Paddle.Initialize().' : 'A client-side token is required: open the checkout with Paddle.Checkout.open().',
      );
    let session: CheckoutSession;
    if (txnId !== undefined) {
      let found: ReturnType<PaddleEngine['payableTransaction']>;
      try {
        found = engine.payableTransaction(txnId);
      } catch (err) {
        if (err instanceof PaddleApiError) return problemPage(reply, err.status, 'Checkout could not open', err.detail);
        throw err;
      }
      if (found.sub === null) {
        // A purchase the API prepared (POST /transactions): its items and custom data are the
        // transaction's. Custom data passed to Paddle.Checkout.open() beside it replaces them, as
        // Paddle holds a checkout's custom data against its transaction (the API must not trust it).
        if (token !== ctx.clientToken) return tokenRefused();
        let customData = found.txn.custom_data;
        try {
          customData = customDataParam(req) ?? customData;
        } catch (err) {
          if (err instanceof RangeError) return problemPage(reply, 400, 'Checkout could not open', err.message);
          throw err;
        }
        const email = param(req, 'email');
        session = engine.openCheckout({
          ...base,
          kind: 'purchase',
          lines: found.txn.items.map((i) => ({ price: engine.catalog.get(i.price.id)!, quantity: i.quantity })),
          customData,
          email: email && EMAIL.test(email) ? email : null,
          transactionId: found.txn.id,
          dueMinor: 0,
        });
      } else {
        const lines = found.sub.items.map((i) => ({ price: engine.catalog.get(i.price.id)!, quantity: i.quantity }));
        session = engine.openCheckout({
          ...base,
          kind: 'update',
          lines,
          customData: found.sub.custom_data,
          email: null,
          transactionId: found.txn.id,
          dueMinor: Number(found.txn.details.totals.grand_total),
        });
      }
    } else {
      if (token !== ctx.clientToken) return tokenRefused();
      let lines: LineInput[];
      let customData: Record<string, unknown> | null = null;
      try {
        const items = parseJson(param(req, 'items'), 'items');
        if (!Array.isArray(items)) throw new RangeError('items must be a JSON array of { priceId, quantity }.');
        lines = engine.lines(items as Array<{ priceId: unknown; quantity: unknown }>);
        customData = customDataParam(req);
      } catch (err) {
        if (err instanceof RangeError) return problemPage(reply, 400, 'Checkout could not open', err.message);
        throw err;
      }
      const email = param(req, 'email');
      session = engine.openCheckout({
        ...base,
        kind: 'purchase',
        lines,
        customData,
        email: email && EMAIL.test(email) ? email : null,
        transactionId: null,
        dueMinor: 0,
      });
    }
    const values: FormValues = { email: session.email ?? '', ...prefilledCard(engine.now()) };
    return formPage(reply, 200, session, values, {}, null, { name: 'checkout.loaded', data: checkoutData(session) });
  });

  app.post('/checkout', async (req, reply) => {
    if (!sameOrigin(req)) return problemPage(reply, 403, 'Checkout refused', 'The payment form must be sent from this checkout page.');
    const form = req.body instanceof FormBody ? req.body : null;
    if (!form) return problemPage(reply, 415, 'Checkout refused', 'The payment form must be sent as application/x-www-form-urlencoded.');
    const session = engine.checkoutSession(form.get('checkout') ?? '');
    if (!session) return problemPage(reply, 410, 'This checkout has expired', 'Open the checkout again to pay.');
    if (session.result) return successPage(reply, session, session.result);
    const values: FormValues = { email: (form.get('email') ?? '').trim(), ...cardValuesOf(form) };
    const checked = checkCardValues(values, engine.now());
    const errors = checked.ok ? {} : { ...checked.errors };
    if (session.kind === 'purchase') {
      const problem = emailProblem(values.email, 320);
      if (problem) errors.email = problem;
    }
    if (!checked.ok || Object.keys(errors).length > 0) return formPage(reply, 400, session, values, errors, null, null);
    if (checked.declined) {
      const data = {
        ...checkoutData(session),
        status: 'failed',
        customer: { id: null, email: session.kind === 'purchase' ? values.email : null },
        error: { type: 'card_declined', code: 'declined', detail: 'Your card was declined' },
        payment: { method_details: { type: 'card', card: { type: checked.card.type, last4: checked.card.last4 } } },
      };
      return formPage(reply, 402, session, values, {}, 'Your card was declined. Try another card.', { name: 'checkout.payment.failed', data });
    }
    let result: CheckoutResult;
    try {
      result = session.kind === 'purchase' ? engine.purchase(session, values.email, checked.card) : engine.payTransaction(session, checked.card);
    } catch (err) {
      if (err instanceof PaddleApiError) return problemPage(reply, err.status, 'Payment not possible', err.detail, session);
      throw err;
    }
    return successPage(reply, session, result);
  });
}
