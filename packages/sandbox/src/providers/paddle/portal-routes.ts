import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../kit/html';
import { baseOf, param, sameOrigin, sendPage } from '../../kit/http';
import { formatMinor } from '../../kit/money';
import { page } from '../../kit/page';
import { PaddleApiError, type PaddleEngine } from './engine';
import type { PaddlePortalSession, PaddleSubscription } from './types';

export interface PortalContext {
  engine: PaddleEngine;
  prefix: string;
  baseUrl: string | null;
}

const NOTICES: Record<string, string> = {
  canceled: 'Your subscription will end at the end of the billing period.',
  resumed: 'Your subscription will continue: the scheduled cancellation was removed.',
  card: 'Your payment method has been updated.',
};

function date(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

function plainPage(reply: FastifyReply, status: number, title: string, body: string) {
  return sendPage(reply, status, page({ title, body: `<p class="sandbox">Sandbox customer portal</p>\n${body}` }));
}

function problem(reply: FastifyReply, status: number, heading: string, detail: string) {
  return plainPage(reply, status, heading, `<section class="card"><h1>${escapeHtml(heading)}</h1><div class="alert" role="alert">${escapeHtml(detail)}</div></section>`);
}

function describe(engine: PaddleEngine, sub: PaddleSubscription): string {
  const names = sub.items.map((i) => `${i.product.name}${i.quantity > 1 ? ` × ${i.quantity}` : ''}`).join(', ');
  const total = sub.items.reduce((t, i) => t + Number(i.price.unit_price.amount) * i.quantity, 0);
  const price = `${formatMinor(total, sub.currency_code)} / ${sub.billing_cycle.interval}`;
  let when = '';
  if (sub.status === 'canceled') when = `Canceled on ${date(sub.canceled_at ?? sub.updated_at)}`;
  else if (sub.scheduled_change) when = `Ends on ${date(sub.scheduled_change.effective_at)}`;
  else if (sub.status === 'past_due') when = 'Payment past due: update your payment method';
  else if (sub.next_billed_at) when = `Renews on ${date(sub.next_billed_at)}`;
  const card = engine.card(sub.id);
  const status = sub.status === 'past_due' ? 'past due' : sub.status;
  return `<h2>${escapeHtml(names)}</h2>
<dl><dt>Status</dt><dd><span class="status ${escapeHtml(sub.status)}">${escapeHtml(status)}</span></dd><dt>Price</dt><dd>${escapeHtml(price)}</dd>${when ? `<dt>Billing</dt><dd>${escapeHtml(when)}</dd>` : ''}<dt>Card</dt><dd>${escapeHtml(`${card.type === 'visa' ? 'Visa' : 'Mastercard'} •••• ${card.last4}`)}</dd></dl>`;
}

/** The customer portal pages a portal session's URLs point to (`/portal/:session/...`). */
export function portalRoutes(app: FastifyInstance, ctx: PortalContext): void {
  const { engine } = ctx;

  /** The live session and, with `subscription`, the customer's subscription, or an error page. */
  const lookup = (req: FastifyRequest, reply: FastifyReply): { session: PaddlePortalSession; sub: PaddleSubscription | null } | null => {
    const { sessionId, subscriptionId } = req.params as { sessionId: string; subscriptionId?: string };
    const session = engine.portal(sessionId);
    if (!session) {
      problem(reply, 404, 'This link has expired', 'Portal links are temporary: open the customer portal again from the app.');
      return null;
    }
    if (subscriptionId === undefined) return { session, sub: null };
    const sub = engine.hasSubscription(subscriptionId) ? engine.subscription(subscriptionId) : null;
    if (!sub || sub.customer_id !== session.customer_id) {
      problem(reply, 404, 'Subscription not found', 'This subscription does not belong to this customer.');
      return null;
    }
    return { session, sub };
  };

  app.get('/portal/:sessionId', async (req, reply) => {
    const found = lookup(req, reply);
    if (!found) return reply;
    const { session } = found;
    const customer = engine.customer(session.customer_id);
    const subs = engine.subscriptions({ customerIds: [session.customer_id] }).reverse();
    const notice = NOTICES[param(req, 'done') ?? ''];
    const items = subs
      .map((sub) => {
        const path = `${encodeURIComponent(session.id)}/subscriptions/${encodeURIComponent(sub.id)}`;
        const actions: string[] = [];
        if (sub.status !== 'canceled') {
          actions.push(`<a class="button secondary" href="${escapeHtml(path)}/payment-method">Update payment method</a>`);
          if (sub.scheduled_change) {
            actions.push(
              `<form class="inline" method="post" action="${escapeHtml(path)}/resume"><button type="submit" class="secondary">Keep my subscription</button></form>`,
            );
          } else {
            actions.push(`<a class="button secondary" href="${escapeHtml(path)}/cancel">Cancel subscription</a>`);
          }
        }
        return `<section class="card">${describe(engine, sub)}${actions.join('\n')}</section>`;
      })
      .join('\n');
    const body = `<h1>Your subscriptions</h1>
<p class="muted">Signed in as ${escapeHtml(customer.email)}</p>
${notice ? `<div class="ok" role="status">${escapeHtml(notice)}</div>` : ''}
${items || '<section class="card"><p>You have no subscriptions.</p></section>'}`;
    return plainPage(reply, 200, 'Your subscriptions', body);
  });

  app.get('/portal/:sessionId/subscriptions/:subscriptionId/cancel', async (req, reply) => {
    const found = lookup(req, reply);
    if (!found) return reply;
    const sub = found.sub!;
    const back = `../../../${encodeURIComponent(found.session.id)}`;
    if (sub.status === 'canceled') return problem(reply, 400, 'Already canceled', 'This subscription is canceled.');
    if (sub.scheduled_change) {
      return plainPage(
        reply,
        200,
        'Cancellation scheduled',
        `<section class="card"><h1>Cancellation scheduled</h1><p>This subscription ends on ${escapeHtml(date(sub.scheduled_change.effective_at))}.</p><a class="button secondary" href="${escapeHtml(back)}">Back to your subscriptions</a></section>`,
      );
    }
    const ends = sub.current_billing_period ? date(sub.current_billing_period.ends_at) : 'the end of the billing period';
    const body = `<section class="card" aria-labelledby="cancel-title">
<h1 id="cancel-title">Cancel your subscription?</h1>
${describe(engine, sub)}
<p>You keep access until <strong>${escapeHtml(ends)}</strong>; you will not be charged again.</p>
<form method="post" action="cancel"><button type="submit" class="danger">Cancel at end of billing period</button></form>
<a class="button secondary" href="${escapeHtml(back)}">Keep my subscription</a>
</section>`;
    return plainPage(reply, 200, 'Cancel your subscription', body);
  });

  app.post('/portal/:sessionId/subscriptions/:subscriptionId/cancel', async (req, reply) => {
    if (!sameOrigin(req)) return problem(reply, 403, 'Refused', 'This form must be sent from the portal page.');
    const found = lookup(req, reply);
    if (!found) return reply;
    try {
      engine.cancel(found.sub!.id, 'next_billing_period');
    } catch (err) {
      if (err instanceof PaddleApiError) return problem(reply, err.status, 'Could not cancel', err.detail);
      throw err;
    }
    return reply.code(303).header('location', `../../../${encodeURIComponent(found.session.id)}?done=canceled`).send();
  });

  app.post('/portal/:sessionId/subscriptions/:subscriptionId/resume', async (req, reply) => {
    if (!sameOrigin(req)) return problem(reply, 403, 'Refused', 'This form must be sent from the portal page.');
    const found = lookup(req, reply);
    if (!found) return reply;
    try {
      engine.update(found.sub!.id, { removeScheduledChange: true, change: null }, false);
    } catch (err) {
      if (err instanceof PaddleApiError) return problem(reply, err.status, 'Could not keep the subscription', err.detail);
      throw err;
    }
    return reply.code(303).header('location', `../../../${encodeURIComponent(found.session.id)}?done=resumed`).send();
  });

  // The card update: a card-update transaction, then its checkout (back to the portal when done).
  app.get('/portal/:sessionId/subscriptions/:subscriptionId/payment-method', async (req, reply) => {
    const found = lookup(req, reply);
    if (!found) return reply;
    const base = baseOf(req, ctx.prefix, ctx.baseUrl);
    let txnId: string;
    try {
      txnId = engine.paymentMethodTransaction(found.sub!.id, (id) => `${base}/checkout?txn=${encodeURIComponent(id)}`).id;
    } catch (err) {
      if (err instanceof PaddleApiError) return problem(reply, err.status, 'Could not update the payment method', err.detail);
      throw err;
    }
    const params = new URLSearchParams({ txn: txnId, success_url: `${found.session.urls.general.overview}?done=card` });
    return reply.code(303).header('location', `../../../../checkout?${params}`).send();
  });
}
