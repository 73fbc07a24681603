import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FormBody } from '../../kit/body';
import type { CardField } from '../../kit/cards';
import { safeEqual } from '../../kit/crypto';
import { type CardValues, cardholderField, cardNumberFields, cardValuesOf, checkCardValues, emailProblem, errorSummary, field, prefilledCard, testCardsList } from '../../kit/form';
import { escapeHtml } from '../../kit/html';
import { param, sameOrigin, sendPage } from '../../kit/http';
import { formatMinor } from '../../kit/money';
import { page } from '../../kit/page';
import { CHECKOUT_SCRIPT } from './checkout-script';
import { type ChargebeeEngine, periodLabel } from './engine';
import { ChargebeeApiError } from './errors';
import type { ChargebeeSnapshotHostedPage } from './snapshot';
import type { ChargebeeInvoice, ChargebeePortalSession, ChargebeeSubscription } from './types';

export interface PageContext {
  engine: ChargebeeEngine;
  site: string;
  /** The plugin's prefix: the portal cookie's path and the portal's links. */
  prefix: string;
}

const COOKIE = 'cb_portal';

function date(seconds: number): string {
  return new Date(seconds * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

function problem(reply: FastifyReply, status: number, heading: string, detail: string, label = 'Sandbox checkout') {
  const body = `<section class="card"><p class="sandbox">${escapeHtml(label)}</p><h1>${escapeHtml(heading)}</h1><div class="alert" role="alert">${escapeHtml(detail)}</div></section>`;
  return sendPage(reply, status, page({ title: heading, body }));
}

/** `url` with `id` and `state` added to its query (Chargebee's hosted page redirect). */
function withResult(url: string, id: string, state: string): string {
  const target = new URL(url);
  target.searchParams.set('id', id);
  target.searchParams.set('state', state);
  return target.href;
}

interface Values extends CardValues {
  email: string;
}

const ORDER: CardField[] = ['email', 'card_number', 'expiry', 'cvc', 'cardholder_name'];

/** GET /pages/v3/:id/, POST …/pay and …/cancel (the hosted checkout), the portal, and invoice downloads. */
export function pageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { engine } = ctx;

  const summary = (hostedPage: ChargebeeSnapshotHostedPage) => {
    const line = hostedPage.lines[0]!;
    const price = engine.catalog.get(line.itemPriceId)!;
    const total = price.price * line.quantity;
    const every = periodLabel(price.periodUnit, price.period);
    return `<section class="card" aria-labelledby="summary-title">
<p class="sandbox">Sandbox (${escapeHtml(ctx.site)}): no real payment</p>
<h1 id="summary-title">Subscribe to ${escapeHtml(price.name)}</h1>
<ul class="lines" aria-label="Items"><li><span>${escapeHtml(price.name)}${line.quantity > 1 ? ` × ${line.quantity}` : ''}</span><span>${escapeHtml(formatMinor(total, price.currencyCode))} / ${escapeHtml(every)}</span></li></ul>
<p class="total"><span>Due today</span><span>${escapeHtml(formatMinor(total, price.currencyCode))}</span></p>
<p class="muted">Then ${escapeHtml(formatMinor(total, price.currencyCode))} every ${escapeHtml(every)} until you cancel.</p>
</section>`;
  };

  const form = (reply: FastifyReply, status: number, hostedPage: ChargebeeSnapshotHostedPage, values: Values, errors: Partial<Record<CardField, string>>, alert: string | null) => {
    const line = hostedPage.lines[0]!;
    const price = engine.catalog.get(line.itemPriceId)!;
    const errorList = errorSummary(ORDER, errors, alert);
    const body = `${summary(hostedPage)}
<section class="card" aria-labelledby="pay-title">
<h2 id="pay-title">Payment details</h2>
${errorList.html}
<form id="pay" method="post" action="pay" novalidate>
${field('email', 'Email', values.email, errors, 'type="email" autocomplete="email" required maxlength="70"')}
${cardNumberFields(values, errors)}
${cardholderField(values, errors)}
<button type="submit">Pay ${escapeHtml(formatMinor(price.price * line.quantity, price.currencyCode))}</button>
</form>
<form method="post" action="cancel"><button type="submit" class="secondary">Cancel and go back</button></form>
${testCardsList()}
</section>`;
    const title = alert ? `${alert} – Checkout` : errorList.count ? `Error – Subscribe to ${price.name}` : `Subscribe to ${price.name}`;
    return sendPage(reply, status, page({ title, body, scriptPath: '../checkout.js' }));
  };

  const success = (reply: FastifyReply, hostedPage: ChargebeeSnapshotHostedPage) => {
    const { subscription } = engine.subscription(hostedPage.result!.subscriptionId);
    const price = engine.catalog.get(subscription.subscription_items[0]!.item_price_id)!;
    const card = engine.card(subscription.id);
    const back = hostedPage.redirectUrl ? `<p><a class="button" href="${escapeHtml(withResult(hostedPage.redirectUrl, hostedPage.id, 'succeeded'))}">Continue</a></p>` : '';
    const body = `<section class="card" aria-labelledby="done-title">
<p class="sandbox">Sandbox (${escapeHtml(ctx.site)}): no real payment</p>
<div class="ok" role="status"><h1 id="done-title">Payment complete</h1><p>Your subscription to ${escapeHtml(price.name)} is active. This checkout has been paid: it cannot be paid again.</p></div>
<dl><dt>Card</dt><dd>${escapeHtml(`${card.type === 'visa' ? 'Visa' : 'Mastercard'} •••• ${card.last4}`)}</dd><dt>Subscription</dt><dd><code>${escapeHtml(subscription.id)}</code></dd><dt>Invoice</dt><dd><code>${escapeHtml(hostedPage.result!.invoiceId)}</code></dd></dl>
${back}
</section>`;
    return sendPage(reply, 200, page({ title: 'Payment complete', body }));
  };

  const closed = (reply: FastifyReply, hostedPage: ChargebeeSnapshotHostedPage) => {
    if (hostedPage.state === 'succeeded') return success(reply, hostedPage);
    if (hostedPage.state === 'cancelled') return problem(reply, 410, 'This checkout was cancelled', 'Start the checkout again from the app to subscribe.');
    if (hostedPage.expiresAt <= engine.sec()) return problem(reply, 410, 'This checkout has expired', 'Start the checkout again from the app to subscribe.');
    return null;
  };

  app.get('/pages/v3/checkout.js', async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(CHECKOUT_SCRIPT),
  );

  app.get('/pages/v3/:id/', async (req, reply) => {
    const page = engine.page((req.params as { id: string }).id, true);
    if (!page) return problem(reply, 404, 'Checkout not found', 'This checkout link is not valid.');
    const done = closed(reply, page);
    if (done) return done;
    return form(reply, 200, page, { email: page.email ?? '', ...prefilledCard(engine.now()) }, {}, null);
  });

  app.post('/pages/v3/:id/pay', async (req, reply) => {
    if (!sameOrigin(req)) return problem(reply, 403, 'Checkout refused', 'The payment form must be sent from this checkout page.');
    const body = req.body instanceof FormBody ? req.body : null;
    if (!body) return problem(reply, 415, 'Checkout refused', 'The payment form must be sent as application/x-www-form-urlencoded.');
    const page = engine.page((req.params as { id: string }).id);
    if (!page) return problem(reply, 404, 'Checkout not found', 'This checkout link is not valid.');
    const done = closed(reply, page);
    if (done) return done;
    const values: Values = { email: (body.get('email') ?? '').trim(), ...cardValuesOf(body) };
    const checked = checkCardValues(values, engine.now());
    const errors = checked.ok ? {} : { ...checked.errors };
    const emailError = emailProblem(values.email, 70);
    if (emailError) errors.email = emailError;
    if (!checked.ok || Object.keys(errors).length > 0) return form(reply, 400, page, values, errors, null);
    if (checked.declined) return form(reply, 402, page, values, {}, 'Your card was declined. Try another card.');
    let paid: ChargebeeSnapshotHostedPage;
    try {
      paid = engine.purchase(page.id, values.email, checked.card);
    } catch (err) {
      if (err instanceof ChargebeeApiError) return problem(reply, 409, 'Payment not possible', err.message);
      throw err;
    }
    if (paid.redirectUrl) return reply.code(303).header('cache-control', 'no-store').header('location', withResult(paid.redirectUrl, paid.id, 'succeeded')).send();
    return success(reply, paid);
  });

  app.post('/pages/v3/:id/cancel', async (req, reply) => {
    if (!sameOrigin(req)) return problem(reply, 403, 'Checkout refused', 'This form must be sent from the checkout page.');
    const page = engine.page((req.params as { id: string }).id);
    if (!page) return problem(reply, 404, 'Checkout not found', 'This checkout link is not valid.');
    if (page.state === 'succeeded') return success(reply, page);
    const cancelled = engine.cancelPage(page.id);
    if (cancelled.cancelUrl) return reply.code(303).header('cache-control', 'no-store').header('location', withResult(cancelled.cancelUrl, cancelled.id, 'cancelled')).send();
    return problem(reply, 200, 'Checkout cancelled', 'Nothing was charged. You can close this page.');
  });

  // ----- invoices -----

  const invoiceDocument = (reply: FastifyReply, inv: ChargebeeInvoice) => {
    const customer = engine.customer(inv.customer_id);
    const money = (n: number) => escapeHtml(formatMinor(n, inv.currency_code));
    const lines = inv.line_items
      .map((l) => `<li><span>${escapeHtml(l.description)}${l.quantity > 1 ? ` × ${l.quantity}` : ''}<br><span class="muted">${escapeHtml(date(l.date_from))} – ${escapeHtml(date(l.date_to))}</span></span><span>${money(l.amount)}</span></li>`)
      .join('');
    const body = `<section class="card" aria-labelledby="inv-title">
<p class="sandbox">Sandbox invoice (${escapeHtml(ctx.site)}): not a tax document</p>
<h1 id="inv-title">Invoice #${escapeHtml(inv.id)}</h1>
<dl><dt>Date</dt><dd>${escapeHtml(date(inv.date))}</dd><dt>Billed to</dt><dd>${escapeHtml(customer.email ?? customer.id)}</dd><dt>Subscription</dt><dd><code>${escapeHtml(inv.subscription_id)}</code></dd><dt>Status</dt><dd><span class="status ${inv.status === 'paid' ? 'active' : 'past_due'}">${inv.status === 'paid' ? 'Paid' : 'Payment due'}</span></dd></dl>
<ul class="lines" aria-label="Invoice lines">${lines}</ul>
<dl><dt>Sub total</dt><dd>${money(inv.sub_total)}</dd><dt>Credits applied</dt><dd>${money(inv.credits_applied)}</dd><dt>Amount paid</dt><dd>${money(inv.amount_paid)}</dd></dl>
<p class="total"><span>Amount due</span><span>${money(inv.amount_due)}</span></p>
</section>`;
    reply.header('content-disposition', `inline; filename="invoice-${inv.id}.html"`);
    return sendPage(reply, 200, page({ title: `Invoice #${inv.id}`, body }));
  };

  app.get('/invoices/download/:token', async (req, reply) => {
    const inv = engine.downloadable((req.params as { token: string }).token);
    if (!inv) return problem(reply, 404, 'This download link has expired', 'Download links are temporary: download the invoice again from the app.', 'Sandbox invoice');
    return invoiceDocument(reply, inv);
  });

  // ----- portal -----

  const portalPath = `${ctx.prefix}/portal/v2`;
  const cookieOf = (req: FastifyRequest): { id: string; secret: string } | null => {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [key, ...items] = part.trim().split('=');
      if (key === COOKIE) {
        const [id, secret] = items.join('=').split('.');
        if (id && secret) return { id, secret };
      }
    }
    return null;
  };
  const session = (req: FastifyRequest, reply: FastifyReply): ChargebeePortalSession | null => {
    const card = cookieOf(req);
    const portalSession = card ? engine.portal(card.id, card.secret, safeEqual) : null;
    if (!portalSession) problem(reply, 401, 'Your portal session has ended', 'Open the customer portal again from the app.', 'Sandbox customer portal');
    return portalSession;
  };
  const portalPage = (reply: FastifyReply, status: number, title: string, body: string) =>
    sendPage(reply, status, page({ title, body: `<p class="sandbox">Sandbox customer portal (${escapeHtml(ctx.site)})</p>\n${body}` }));
  const owned = (portalSession: ChargebeePortalSession, reply: FastifyReply, subId: string): ChargebeeSubscription | null => {
    const found = engine.subscriptions({ customerId: portalSession.customer_id }).find((x) => x.subscription.id === subId);
    if (!found) problem(reply, 404, 'Subscription not found', 'This subscription does not belong to you.', 'Sandbox customer portal');
    return found?.subscription ?? null;
  };

  app.get('/portal/v2/access/:token', async (req, reply) => {
    const login = engine.portalLogin((req.params as { token: string }).token);
    if (!login) return problem(reply, 410, 'This link has expired or was already used', 'Portal links work once and for a short time: open the customer portal again from the app.', 'Sandbox customer portal');
    const maxAge = Math.max(1, login.session.expires_at - engine.sec());
    const secure = req.protocol === 'https' ? '; Secure' : '';
    return reply
      .code(303)
      .header('cache-control', 'no-store')
      .header('set-cookie', `${COOKIE}=${login.session.id}.${login.secret}; Path=${portalPath}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`)
      .header('location', `${portalPath}/home`)
      .send();
  });

  const NOTICES: Record<string, string> = {
    cancelled: 'Your subscription will be cancelled at the end of the current term.',
    resumed: 'The scheduled cancellation was removed: your subscription will renew.',
  };

  app.get('/portal/v2/home', async (req, reply) => {
    const portalSession = session(req, reply);
    if (!portalSession) return reply;
    const customer = engine.customer(portalSession.customer_id);
    const subs = engine.subscriptions({ customerId: portalSession.customer_id }).map((x) => x.subscription);
    const notice = NOTICES[param(req, 'done') ?? ''];
    const items = subs
      .map((sub) => {
        const item = sub.subscription_items[0]!;
        const price = engine.catalog.get(item.item_price_id)!;
        const every = periodLabel(sub.billing_period_unit, sub.billing_period);
        let when = '';
        if (sub.status === 'cancelled') when = `Cancelled on ${date(sub.cancelled_at ?? sub.updated_at)}`;
        else if (sub.status === 'non_renewing') when = `Ends on ${date(sub.cancelled_at ?? sub.current_term_end ?? 0)}`;
        else if (sub.next_billing_at) when = `Renews on ${date(sub.next_billing_at)}`;
        const base = `${portalPath}/subscriptions/${encodeURIComponent(sub.id)}`;
        const action =
          sub.status === 'active'
            ? `<a class="button secondary" href="${escapeHtml(base)}/cancel">Cancel subscription</a>`
            : sub.status === 'non_renewing'
              ? `<form class="inline" method="post" action="${escapeHtml(base)}/remove_scheduled_cancellation"><button type="submit" class="secondary">Keep my subscription</button></form>`
              : '';
        const due = sub.due_invoices_count > 0 ? '<dt>Payment</dt><dd>A payment is due</dd>' : '';
        return `<section class="card"><h2>${escapeHtml(price.name)}${item.quantity > 1 ? ` × ${item.quantity}` : ''}</h2>
<dl><dt>Status</dt><dd><span class="status ${sub.status === 'active' ? 'active' : sub.status === 'cancelled' ? 'canceled' : ''}">${escapeHtml(sub.status.replace('_', ' '))}</span></dd><dt>Price</dt><dd>${escapeHtml(formatMinor(item.amount, sub.currency_code))} / ${escapeHtml(every)}</dd>${when ? `<dt>Billing</dt><dd>${escapeHtml(when)}</dd>` : ''}${due}</dl>
${action}</section>`;
      })
      .join('\n');
    const invoices = engine
      .invoices({ customerId: portalSession.customer_id })
      .map(
        (inv) =>
          `<li><span>#${escapeHtml(inv.id)} · ${escapeHtml(date(inv.date))} · ${escapeHtml(formatMinor(inv.total, inv.currency_code))} · ${inv.status === 'paid' ? 'Paid' : 'Payment due'}</span><a href="${escapeHtml(`${portalPath}/invoices/${encodeURIComponent(inv.id)}`)}">Download<span class="muted"> invoice #${escapeHtml(inv.id)}</span></a></li>`,
      )
      .join('');
    const body = `<h1>Your account</h1>
<p class="muted">Signed in as ${escapeHtml(customer.email ?? customer.id)}</p>
${notice ? `<div class="ok" role="status">${escapeHtml(notice)}</div>` : ''}
<h2>Subscriptions</h2>
${items || '<section class="card"><p>You have no subscriptions.</p></section>'}
<section class="card" aria-labelledby="inv-title"><h2 id="inv-title">Invoices</h2>${invoices ? `<ul class="lines">${invoices}</ul>` : '<p>No invoices yet.</p>'}</section>
<form method="post" action="${escapeHtml(portalPath)}/logout"><button type="submit" class="secondary">Sign out${portalSession.redirect_url ? ' and return' : ''}</button></form>`;
    return portalPage(reply, 200, 'Your account', body);
  });

  app.get('/portal/v2/subscriptions/:id/cancel', async (req, reply) => {
    const portalSession = session(req, reply);
    if (!portalSession) return reply;
    const sub = owned(portalSession, reply, (req.params as { id: string }).id);
    if (!sub) return reply;
    if (sub.status !== 'active') return problem(reply, 400, 'Nothing to cancel', 'This subscription is not active.', 'Sandbox customer portal');
    const body = `<section class="card" aria-labelledby="cancel-title">
<h1 id="cancel-title">Cancel your subscription?</h1>
<p>You keep access until <strong>${escapeHtml(date(sub.current_term_end ?? 0))}</strong>, the end of the current term; you will not be charged again.</p>
<form method="post" action="cancel"><button type="submit" class="danger">Cancel at end of term</button></form>
<a class="button secondary" href="${escapeHtml(portalPath)}/home">Keep my subscription</a>
</section>`;
    return portalPage(reply, 200, 'Cancel your subscription', body);
  });

  app.post('/portal/v2/subscriptions/:id/cancel', async (req, reply) => {
    if (!sameOrigin(req)) return problem(reply, 403, 'Refused', 'This form must be sent from the portal.', 'Sandbox customer portal');
    const portalSession = session(req, reply);
    if (!portalSession) return reply;
    const sub = owned(portalSession, reply, (req.params as { id: string }).id);
    if (!sub) return reply;
    try {
      engine.cancel(sub.id, true, 'portal');
    } catch (err) {
      if (err instanceof ChargebeeApiError) return problem(reply, 400, 'Could not cancel', err.message, 'Sandbox customer portal');
      throw err;
    }
    return reply.code(303).header('location', `${portalPath}/home?done=cancelled`).send();
  });

  app.post('/portal/v2/subscriptions/:id/remove_scheduled_cancellation', async (req, reply) => {
    if (!sameOrigin(req)) return problem(reply, 403, 'Refused', 'This form must be sent from the portal.', 'Sandbox customer portal');
    const portalSession = session(req, reply);
    if (!portalSession) return reply;
    const sub = owned(portalSession, reply, (req.params as { id: string }).id);
    if (!sub) return reply;
    try {
      engine.removeScheduledCancellation(sub.id, 'portal');
    } catch (err) {
      if (err instanceof ChargebeeApiError) return problem(reply, 400, 'Could not keep the subscription', err.message, 'Sandbox customer portal');
      throw err;
    }
    return reply.code(303).header('location', `${portalPath}/home?done=resumed`).send();
  });

  app.get('/portal/v2/invoices/:id', async (req, reply) => {
    const portalSession = session(req, reply);
    if (!portalSession) return reply;
    const inv = engine.invoices({ customerId: portalSession.customer_id }).find((i) => i.id === (req.params as { id: string }).id);
    if (!inv) return problem(reply, 404, 'Invoice not found', 'This invoice does not belong to you.', 'Sandbox customer portal');
    return invoiceDocument(reply, inv);
  });

  app.post('/portal/v2/logout', async (req, reply) => {
    if (!sameOrigin(req)) return problem(reply, 403, 'Refused', 'This form must be sent from the portal.', 'Sandbox customer portal');
    const card = cookieOf(req);
    const portalSession = card ? engine.portal(card.id, card.secret, safeEqual) : null;
    const out = portalSession ? engine.portalLogout(portalSession.id) : null;
    reply.header('set-cookie', `${COOKIE}=; Path=${portalPath}; Max-Age=0; HttpOnly; SameSite=Lax`);
    if (out?.redirect_url) return reply.code(303).header('location', out.redirect_url).send();
    return portalPage(reply, 200, 'Signed out', '<section class="card"><h1>Signed out</h1><p>You can close this page.</p></section>');
  });
}
