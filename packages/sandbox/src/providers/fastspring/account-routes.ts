import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../kit/html';
import { param, sameOrigin, sendPage } from '../../kit/http';
import { page } from '../../kit/page';
import { FastspringApiError, type FastspringEngine, type OrderRecord, type SubscriptionRecord } from './engine';
import { dateDisplay, display, intervalLabel } from './format';

export interface AccountContext {
  engine: FastspringEngine;
  prefix: string;
}

const NOTICES: Record<string, string> = {
  canceled: 'Your subscription is canceled: it stays active until the end of the billing period.',
  resumed: 'Your subscription will go on: the cancellation was removed.',
};

function date(ms: number): string {
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

function plainPage(reply: FastifyReply, status: number, title: string, body: string) {
  return sendPage(reply, status, page({ title, body }));
}

function problem(reply: FastifyReply, status: number, heading: string, detail: string) {
  return plainPage(reply, status, heading, `<p class="sandbox">Sandbox account</p><section class="card"><h1>${escapeHtml(heading)}</h1><div class="alert" role="alert">${escapeHtml(detail)}</div></section>`);
}

function subscriptionHtml(engine: FastspringEngine, sub: SubscriptionRecord, token: string): string {
  const name = engine.catalog.get(sub.product)?.display ?? sub.product;
  const price = `${display(sub.unitMinor * sub.quantity, sub.currency)} / ${intervalLabel(sub.intervalUnit, sub.intervalLength)}`;
  let when = '';
  if (sub.state === 'deactivated') when = `Ended on ${date(sub.deactivationDate ?? sub.changed)}`;
  else if (sub.state === 'canceled') when = `Ends on ${date(sub.next!)}`;
  else if (sub.state === 'overdue') when = 'Payment overdue: the last charge failed';
  else when = `Renews on ${date(sub.next!)}`;
  const action =
    sub.state === 'active' || sub.state === 'overdue'
      ? `<form class="inline" method="post" action="${escapeHtml(token)}/subscriptions/${escapeHtml(sub.id)}/cancel"><button type="submit" class="danger">Cancel subscription</button></form>`
      : sub.state === 'canceled'
        ? `<form class="inline" method="post" action="${escapeHtml(token)}/subscriptions/${escapeHtml(sub.id)}/uncancel"><button type="submit">Resume subscription</button></form>`
        : '';
  return `<section class="card" aria-labelledby="sub-${escapeHtml(sub.id)}">
<h2 id="sub-${escapeHtml(sub.id)}">${escapeHtml(name)}${sub.quantity > 1 ? ` × ${sub.quantity}` : ''}</h2>
<dl><dt>Status</dt><dd><span class="status ${sub.state === 'active' ? 'active' : 'canceled'}">${escapeHtml(sub.state)}</span></dd><dt>Price</dt><dd>${escapeHtml(price)}</dd><dt>Billing</dt><dd>${escapeHtml(when)}</dd><dt>Card</dt><dd>${escapeHtml(`${sub.card.type === 'visa' ? 'Visa' : 'Mastercard'} •••• ${sub.card.last4}`)}</dd></dl>
${action}
</section>`;
}

function ordersHtml(engine: FastspringEngine, orders: OrderRecord[], prefix: string): string {
  if (orders.length === 0) return '<p class="muted">No orders yet.</p>';
  const rows = [...orders]
    .reverse()
    .map(
      (order) =>
        `<li><span>${escapeHtml(date(order.created))} · <code>${escapeHtml(order.reference)}</code> · ${escapeHtml(display(order.totalMinor, order.currency))}</span> <a href="${escapeHtml(`${prefix}${engine.invoicePath(order)}`)}">Invoice<span class="muted"> for ${escapeHtml(order.reference)}</span></a></li>`,
    )
    .join('');
  return `<ul class="lines" aria-label="Orders">${rows}</ul>`;
}

/**
 * The account page `GET /accounts/{id}/authenticate` links to (`/account/:accountId/:token`, 24 hours),
 * its cancel/resume forms, and the printable invoices orders link to (`invoiceUrl`).
 */
export function accountRoutes(app: FastifyInstance, ctx: AccountContext): void {
  const { engine, prefix } = ctx;

  const lookup = (req: FastifyRequest, reply: FastifyReply) => {
    const { accountId, token } = req.params as { accountId: string; token: string };
    const session = engine.accountSession(accountId, token);
    if (!session) {
      problem(reply, 404, 'This link has expired', 'Account links work for 24 hours: open your account again from the app.');
      return null;
    }
    return { account: engine.accounts.get(accountId)!, token };
  };

  app.get('/account', async (_req, reply) =>
    problem(reply, 401, 'Sign in from the app', 'This sandbox has no password sign-in: open your account from the app (it asks FastSpring for a link to this page).'),
  );

  app.get('/account/:accountId/:token', async (req, reply) => {
    const found = lookup(req, reply);
    if (!found) return reply;
    const { account } = found;
    const subs = [...engine.subs.values()].filter((s) => s.accountId === account.id).sort((a, b) => b.begin - a.begin);
    const notice = NOTICES[param(req, 'done') ?? ''];
    const body = `<p class="sandbox">Sandbox account</p>
<section class="card"><h1>Your account</h1><p class="muted">${escapeHtml(account.email)}</p>
${notice ? `<div class="ok" role="status">${escapeHtml(notice)}</div>` : ''}</section>
<h2>Subscriptions</h2>
${subs.length ? subs.map((s) => subscriptionHtml(engine, s, found.token)).join('\n') : '<p class="muted">No subscriptions.</p>'}
<section class="card" aria-labelledby="orders-title"><h2 id="orders-title">Orders</h2>
${ordersHtml(engine, engine.ordersOf({ accountId: account.id }), prefix)}
</section>`;
    return plainPage(reply, 200, 'Your account', body);
  });

  const change = (kind: 'cancel' | 'uncancel') => async (req: FastifyRequest, reply: FastifyReply) => {
    if (!sameOrigin(req)) return problem(reply, 403, 'Refused', 'This form must be sent from the account page.');
    const found = lookup(req, reply);
    if (!found) return reply;
    const { subscriptionId } = req.params as { subscriptionId: string };
    const sub = engine.subs.get(subscriptionId);
    if (!sub || sub.accountId !== found.account.id) return problem(reply, 404, 'Subscription not found', 'This subscription does not belong to this account.');
    try {
      if (kind === 'cancel') engine.cancel(sub.id, false);
      else engine.uncancel(sub.id);
    } catch (err) {
      if (err instanceof FastspringApiError) return problem(reply, 409, 'Not possible', err.message === 'FastSpring API error' ? 'The subscription cannot be changed now.' : err.message);
      throw err;
    }
    const done = kind === 'cancel' ? 'canceled' : 'resumed';
    return reply.redirect(`${prefix}/account/${encodeURIComponent(found.account.id)}/${encodeURIComponent(found.token)}?done=${done}`, 303);
  };
  app.post('/account/:accountId/:token/subscriptions/:subscriptionId/cancel', change('cancel'));
  app.post('/account/:accountId/:token/subscriptions/:subscriptionId/uncancel', change('uncancel'));

  app.get('/account/order/:reference/invoice/:key', async (req, reply) => {
    const { reference, key } = req.params as { reference: string; key: string };
    const order = engine.orderByReference(reference);
    if (!order || order.invoiceKey !== key) return problem(reply, 404, 'Invoice not found', 'Check the invoice link.');
    const account = engine.accounts.get(order.accountId);
    const rows = order.items
      .map((i) => `<li><span>${escapeHtml(i.display)}${i.quantity > 1 ? ` × ${i.quantity}` : ''}</span><span>${escapeHtml(display(i.subtotalMinor, order.currency))}</span></li>`)
      .join('');
    const kind = order.kind === 'checkout' ? 'Order' : order.kind === 'rebill' ? 'Subscription renewal' : 'Plan change (prorated)';
    const body = `<p class="sandbox">Sandbox invoice: no real payment</p>
<section class="card" aria-labelledby="invoice-title">
<h1 id="invoice-title">Invoice ${escapeHtml(order.reference)}</h1>
<dl><dt>Date</dt><dd>${escapeHtml(date(order.created))} (${escapeHtml(dateDisplay(order.created))})</dd><dt>Type</dt><dd>${escapeHtml(kind)}</dd><dt>Billed to</dt><dd>${escapeHtml([order.first, order.last].filter(Boolean).join(' ') || (account?.email ?? order.email))}<br>${escapeHtml(order.email)}</dd><dt>Paid with</dt><dd>${escapeHtml(`${order.card.type === 'visa' ? 'Visa' : 'Mastercard'} •••• ${order.card.last4}`)}</dd></dl>
<ul class="lines" aria-label="Items">${rows}</ul>
<p class="total"><span>Tax</span><span>${escapeHtml(display(0, order.currency))}</span></p>
<p class="total"><span>Total paid</span><span>${escapeHtml(display(order.totalMinor, order.currency))}</span></p>
<p class="muted">Sold by the FastSpring sandbox (merchant of record stand-in). Print this page to keep a copy.</p>
</section>`;
    return plainPage(reply, 200, `Invoice ${order.reference}`, body);
  });
}
