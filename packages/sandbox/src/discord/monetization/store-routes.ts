import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FormBody } from '../../kit/body';
import type { CardField } from '../../kit/cards';
import { type CardValues, cardholderField, cardNumberFields, cardValuesOf, checkCardValues, errorSummary, prefilledCard, testCardsList } from '../../kit/form';
import { escapeHtml } from '../../kit/html';
import { queryOf, sameOrigin } from '../../kit/http';
import { formatMinor } from '../../kit/money';
import type { DemoUser } from '../demo-data';
import type { SandboxEngine } from '../engine';
import { sendPage } from '../oauth';
import { membershipsOf } from '../rest';
import { demoUsers, findUser, guildOf } from '../util';
import { type MonetizationEngine, MonetizationError, type ResolvedSku, type SubscriptionRecord } from './engine';
import { storePage } from './pages';
import { SKU_FLAGS, SKU_TYPE, SUBSCRIPTION_STATUS } from './types';

type Field = CardField | 'guild_id';

interface Values extends CardValues {
  guild_id: string;
}

function date(ms: number): string {
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** `$4.99 / month`, `€9.99 / year`, `$1.00 every 14 days`. */
function priceText(sku: ResolvedSku): string {
  const money = formatMinor(sku.amount, sku.currency);
  if (sku.periodDays === 30) return `${money} / month`;
  if (sku.periodDays === 365) return `${money} / year`;
  if (sku.periodDays === 7) return `${money} / week`;
  return `${money} every ${sku.periodDays} days`;
}

function isGuildSku(sku: ResolvedSku): boolean {
  return (sku.flags & SKU_FLAGS.GUILD_SUBSCRIPTION) !== 0;
}

function send(reply: FastifyReply, status: number, title: string, body: string) {
  return sendPage(reply, status, storePage(title, body));
}

function problem(reply: FastifyReply, status: number, heading: string, detail: string, extra = '') {
  return send(reply, status, heading, `<section class="card"><h1>${escapeHtml(heading)}</h1><div class="alert" role="alert">${escapeHtml(detail)}</div>${extra}</section>`);
}

/** The demo accounts as links (the sandbox has no signed-in user: like the consent screen, you pick one; `login_hint` picks it). */
function chooser(heading: string, intro: string, href: (user: DemoUser) => string): string {
  const items = demoUsers()
    .map((u) => `<li><a href="${escapeHtml(href(u))}"><strong>${escapeHtml(u.globalName)}</strong> <small>@${escapeHtml(u.username)} · ${escapeHtml(u.blurb)}</small></a></li>`)
    .join('\n');
  return `<section class="card" aria-labelledby="who"><h1 id="who">${escapeHtml(heading)}</h1><p class="muted">${escapeHtml(intro)}</p><ul class="accounts">${items}</ul></section>`;
}

const FIELD_ORDER: Field[] = ['guild_id', 'card_number', 'expiry', 'cvc', 'cardholder_name'];

/**
 * The store page (Discord's `https://discord.com/application-directory/{app}/store/{sku}`) and the
 * user's app subscription settings (`/settings/subscriptions`), both under the sandbox's prefix.
 * Who buys: `?login_hint=<demo user id, key or username>` like the consent screen; without it the page
 * lists the demo accounts to pick one.
 */
export function storeRoutes(app: FastifyInstance, discord: SandboxEngine, engine: MonetizationEngine): void {
  const memberships = membershipsOf(discord);
  const manageHref = (prefix: string, user: DemoUser) => `${prefix}settings/subscriptions?login_hint=${encodeURIComponent(user.id)}`;

  /** The store's SKU, or an error page. */
  const skuOf = (req: FastifyRequest, reply: FastifyReply): ResolvedSku | null => {
    const { appId, skuId } = req.params as { appId: string; skuId: string };
    const sku = engine.sku(skuId);
    if (appId !== engine.applicationId) {
      problem(reply, 404, 'Unknown application', 'This application has no store in the sandbox.');
      return null;
    }
    if (!sku || sku.type !== SKU_TYPE.SUBSCRIPTION || (sku.flags & SKU_FLAGS.AVAILABLE) === 0) {
      problem(reply, 404, 'Not available', 'This application does not sell this item (unknown SKU, or not available).');
      return null;
    }
    return sku;
  };

  const guildsOf = (user: DemoUser) =>
    memberships(user.id).flatMap((member) => {
      const guild = guildOf(member.guildId);
      return guild ? [guild] : [];
    });

  const formPage = (reply: FastifyReply, status: number, sku: ResolvedSku, user: DemoUser, values: Values, errors: Partial<Record<Field, string>>, alert: string | null) => {
    const summary = errorSummary(FIELD_ORDER, errors, alert);
    let guildHtml = '';
    if (isGuildSku(sku)) {
      const options = guildsOf(user)
        .map((guild) => {
          const taken = engine.activeFor(sku.id, { userId: user.id, guildId: guild.id }) !== undefined;
          return `<option value="${escapeHtml(guild.id)}"${guild.id === values.guild_id ? ' selected' : ''}${taken ? ' disabled' : ''}>${escapeHtml(guild.name)}${taken ? ' (already subscribed)' : ''}</option>`;
        })
        .join('');
      const error = errors.guild_id;
      guildHtml = `<div><label for="guild_id">Server</label><select id="guild_id" name="guild_id" required${error ? ' aria-invalid="true" aria-describedby="guild_id-error"' : ''}><option value="">Choose a server</option>${options}</select>${
        error ? `<p class="field-error" id="guild_id-error">${escapeHtml(error)}</p>` : ''
      }</div>`;
    }
    const body = `<section class="card" aria-labelledby="sku-title">
<p class="muted">${escapeHtml(discord.options.appName)} · App subscription</p>
<h1 id="sku-title">${escapeHtml(sku.name)}</h1>
<p class="price">${escapeHtml(priceText(sku))}</p>
<p class="muted">${isGuildSku(sku) ? 'For one server: every member gets the perks.' : 'For your account, in every server with the app.'} Renews every ${sku.periodDays} days until you cancel in Settings › Subscriptions.</p>
<p class="muted">Buying as <strong>${escapeHtml(user.globalName)}</strong> (@${escapeHtml(user.username)}). <a href="${escapeHtml(sku.id)}">Not you? Choose another account</a></p>
</section>
<section class="card" aria-labelledby="pay-title">
<h2 id="pay-title">Payment details</h2>
${summary.html}
<form method="post" action="${escapeHtml(sku.id)}" novalidate>
<input type="hidden" name="user_id" value="${escapeHtml(user.id)}">
${guildHtml}
${cardNumberFields(values, errors)}
${cardholderField(values, errors)}
<button type="submit">Subscribe for ${escapeHtml(priceText(sku))}</button>
</form>
${testCardsList()}
</section>`;
    const title = alert ? `${alert} – ${sku.name}` : summary.count ? `Error – ${sku.name}` : sku.name;
    return send(reply, status, title, body);
  };

  const alreadyPage = (reply: FastifyReply, status: number, sku: ResolvedSku, user: DemoUser, guildName: string | null) =>
    send(
      reply,
      status,
      `Already subscribed – ${sku.name}`,
      `<section class="card"><h1>${escapeHtml(sku.name)}</h1><div class="ok" role="status">${
        guildName ? `${escapeHtml(guildName)} already has ${escapeHtml(sku.name)}.` : `You already have ${escapeHtml(sku.name)}.`
      } You cannot buy it twice.</div><a class="button secondary" href="${escapeHtml(manageHref('../../../', user))}">Manage your subscriptions</a></section>`,
    );

  app.get('/application-directory/:appId/store/:skuId', async (req, reply) => {
    const sku = skuOf(req, reply);
    if (!sku) return reply;
    const hint = queryOf(req.url).get('login_hint');
    if (hint === null) {
      return send(reply, 200, sku.name, chooser(`Buy ${sku.name}`, `${priceText(sku)}. Choose the demo account that buys it.`, (u) => `${sku.id}?login_hint=${encodeURIComponent(u.id)}`));
    }
    const user = findUser(hint.slice(0, 64));
    if (!user) return problem(reply, 400, 'Unknown account', `login_hint "${hint.slice(0, 64)}" is not a demo user.`, `<a class="button secondary" href="${escapeHtml(sku.id)}">Choose a demo account</a>`);
    if (!isGuildSku(sku) && engine.activeFor(sku.id, { userId: user.id, guildId: null })) return alreadyPage(reply, 200, sku, user, null);
    const values: Values = { guild_id: '', ...prefilledCard(discord.now()) };
    return formPage(reply, 200, sku, user, values, {}, null);
  });

  app.post('/application-directory/:appId/store/:skuId', async (req, reply) => {
    if (!sameOrigin(req)) return problem(reply, 403, 'Purchase refused', 'The payment form must be sent from the store page.');
    const sku = skuOf(req, reply);
    if (!sku) return reply;
    const form = req.body instanceof FormBody ? req.body : null;
    if (!form) return problem(reply, 415, 'Purchase refused', 'The payment form must be sent as application/x-www-form-urlencoded.');
    const user = demoUsers().find((u) => u.id === form.get('user_id'));
    if (!user) return problem(reply, 400, 'Choose an account', 'Pick one of the demo accounts to buy with.', `<a class="button secondary" href="${escapeHtml(sku.id)}">Choose a demo account</a>`);
    const values: Values = { guild_id: form.get('guild_id') ?? '', ...cardValuesOf(form) };
    const checked = checkCardValues(values, discord.now());
    const errors: Partial<Record<Field, string>> = checked.ok ? {} : { ...checked.errors };
    let guildId: string | null = null;
    let guildName: string | null = null;
    if (isGuildSku(sku)) {
      const guild = guildsOf(user).find((g) => g.id === values.guild_id);
      if (!guild) errors.guild_id = 'Choose one of your servers.';
      else {
        guildId = guild.id;
        guildName = guild.name;
      }
    }
    if (engine.activeFor(sku.id, { userId: user.id, guildId })) return alreadyPage(reply, 409, sku, user, guildName);
    if (!checked.ok || Object.keys(errors).length > 0) return formPage(reply, 400, sku, user, values, errors, null);
    if (checked.declined) return formPage(reply, 402, sku, user, values, {}, 'Your card was declined. Try another card.');
    let sub: SubscriptionRecord;
    try {
      sub = engine.purchase(user.id, sku.id, guildId).subscription;
    } catch (err) {
      if (err instanceof MonetizationError) {
        if (err.code === 40074) return alreadyPage(reply, 409, sku, user, guildName);
        return problem(reply, err.status, 'Purchase not possible', err.message);
      }
      throw err;
    }
    const body = `<section class="card" aria-labelledby="done-title">
<div class="ok" role="status"><h1 id="done-title">You're subscribed!</h1><p>${escapeHtml(sku.name)} is active${guildName ? ` for ${escapeHtml(guildName)}` : ''}. Thank you!</p></div>
<dl><dt>Price</dt><dd>${escapeHtml(priceText(sku))}</dd><dt>Card</dt><dd>${escapeHtml(`${checked.card.type === 'visa' ? 'Visa' : 'Mastercard'} •••• ${checked.card.last4}`)}</dd><dt>Renews on</dt><dd>${escapeHtml(date(sub.periodEnd))}</dd><dt>Subscription</dt><dd><code>${escapeHtml(sub.id)}</code></dd><dt>Entitlement</dt><dd><code>${escapeHtml(sub.entitlementId)}</code></dd></dl>
<a class="button secondary" href="${escapeHtml(manageHref('../../../', user))}">Manage your subscriptions</a>
</section>`;
    return send(reply, 200, 'Subscribed', body);
  });

  const NOTICES: Record<string, string> = {
    canceled: 'Your subscription is canceled: it ends at the end of the billing period.',
    uncanceled: 'Your subscription will continue: the cancellation was taken back.',
  };

  const describe = (subscription: SubscriptionRecord, user: DemoUser): string => {
    const sku = engine.sku(subscription.skuId)!;
    const entitlement = engine.entitlements.get(subscription.entitlementId);
    const guild = entitlement?.guildId ? guildOf(entitlement.guildId) : undefined;
    let status: string;
    let when: string;
    const actions: string[] = [];
    const hidden = `<input type="hidden" name="user_id" value="${escapeHtml(user.id)}">`;
    if (subscription.status === SUBSCRIPTION_STATUS.ACTIVE) {
      status = '<span class="status active">Active</span>';
      when = `Renews on ${date(subscription.periodEnd)}`;
      actions.push(`<form class="inline" method="post" action="subscriptions/${escapeHtml(subscription.id)}/cancel">${hidden}<button type="submit" class="danger">Cancel subscription</button></form>`);
    } else if (subscription.status === SUBSCRIPTION_STATUS.ENDING) {
      status = '<span class="status ending">Canceled</span>';
      when = `Ends on ${date(subscription.periodEnd)}; you keep the perks until then`;
      actions.push(`<form class="inline" method="post" action="subscriptions/${escapeHtml(subscription.id)}/uncancel">${hidden}<button type="submit">Keep my subscription</button></form>`);
    } else {
      status = '<span class="status inactive">Ended</span>';
      when = entitlement?.deleted ? 'Refunded' : `Ended on ${date(entitlement?.endsAt ?? subscription.periodEnd)}`;
    }
    return `<section class="card" aria-labelledby="sub-${escapeHtml(subscription.id)}"><h2 id="sub-${escapeHtml(subscription.id)}">${escapeHtml(sku.name)}${guild ? ` · ${escapeHtml(guild.name)}` : ''}</h2>
<dl><dt>Status</dt><dd>${status}</dd><dt>Price</dt><dd>${escapeHtml(priceText(sku))}</dd><dt>Billing</dt><dd>${escapeHtml(when)}</dd><dt>Subscription</dt><dd><code>${escapeHtml(subscription.id)}</code></dd></dl>
${actions.join('\n')}</section>`;
  };

  app.get('/settings/subscriptions', async (req, reply) => {
    const params = queryOf(req.url);
    const hint = params.get('login_hint');
    if (hint === null) {
      return send(reply, 200, 'Subscriptions', chooser('App subscriptions', 'Choose the demo account whose subscriptions to manage.', (u) => `subscriptions?login_hint=${encodeURIComponent(u.id)}`));
    }
    const user = findUser(hint.slice(0, 64));
    if (!user) return problem(reply, 400, 'Unknown account', `login_hint "${hint.slice(0, 64)}" is not a demo user.`, '<a class="button secondary" href="subscriptions">Choose a demo account</a>');
    const subs = engine
      .subscriptionList()
      .filter((s) => s.userId === user.id)
      .reverse();
    const notice = NOTICES[params.get('done') ?? ''];
    const shop = [...engine.skus.values()]
      .filter((s) => s.type === SKU_TYPE.SUBSCRIPTION && (s.flags & SKU_FLAGS.AVAILABLE) !== 0)
      .map((s) => `<li><a href="${escapeHtml(`../application-directory/${engine.applicationId}/store/${s.id}?login_hint=${encodeURIComponent(user.id)}`)}">${escapeHtml(s.name)}</a> <span class="muted">${escapeHtml(priceText(s))}</span></li>`)
      .join('');
    const body = `<h1>App subscriptions</h1>
<p class="muted">Signed in as ${escapeHtml(user.globalName)} (@${escapeHtml(user.username)}). <a href="subscriptions">Switch account</a></p>
${notice ? `<div class="ok" role="status">${escapeHtml(notice)}</div>` : ''}
${subs.map((s) => describe(s, user)).join('\n') || '<section class="card"><p>You have no app subscriptions.</p></section>'}
${shop ? `<section class="card"><h2>${escapeHtml(discord.options.appName)}'s store</h2><ul>${shop}</ul></section>` : ''}`;
    return send(reply, 200, 'App subscriptions', body);
  });

  const change = (action: 'cancel' | 'uncancel') => async (req: FastifyRequest, reply: FastifyReply) => {
    if (!sameOrigin(req)) return problem(reply, 403, 'Refused', 'This form must be sent from the subscriptions page.');
    const form = req.body instanceof FormBody ? req.body : null;
    const user = form ? demoUsers().find((u) => u.id === form.get('user_id')) : undefined;
    if (!user) return problem(reply, 400, 'Choose an account', 'This form must name the demo account the subscription belongs to.', '<a class="button secondary" href="../../subscriptions">Back</a>');
    const { subscriptionId } = req.params as { subscriptionId: string };
    try {
      if (action === 'cancel') engine.cancel(subscriptionId, user.id);
      else engine.resume(subscriptionId, user.id);
    } catch (err) {
      if (err instanceof MonetizationError) {
        return problem(reply, err.status, action === 'cancel' ? 'Could not cancel' : 'Could not keep the subscription', err.message, `<a class="button secondary" href="${escapeHtml(`../../subscriptions?login_hint=${encodeURIComponent(user.id)}`)}">Back to your subscriptions</a>`);
      }
      throw err;
    }
    return reply
      .code(303)
      .header('location', `../../subscriptions?login_hint=${encodeURIComponent(user.id)}&done=${action === 'cancel' ? 'canceled' : 'uncanceled'}`)
      .header('cache-control', 'no-store')
      .send();
  };
  app.post('/settings/subscriptions/:subscriptionId/cancel', change('cancel'));
  app.post('/settings/subscriptions/:subscriptionId/uncancel', change('uncancel'));
}
