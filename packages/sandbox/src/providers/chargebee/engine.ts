import { randomBytes } from 'node:crypto';
import type { Card } from '../../kit/cards';
import { addInterval } from '../../kit/dates';
import { randomId, type WebhookQueue } from './delivery';
import { ChargebeeApiError, invalidParam, invalidState, notFound } from './errors';
import {
  type ChargebeeSnapshot,
  type ChargebeeSnapshotCustomer,
  type ChargebeeSnapshotHostedPage,
  type ChargebeeSnapshotItem,
  type ChargebeeSnapshotPortal,
  type ChargebeeSnapshotSubscription,
  readSnapshot,
} from './snapshot';
import type {
  ChargebeeCreditNoteEstimate,
  ChargebeeCustomer,
  ChargebeeEstimate,
  ChargebeeEstimateLineItem,
  ChargebeeEventContent,
  ChargebeeHostedPage,
  ChargebeeInvoice,
  ChargebeeInvoiceEstimate,
  ChargebeeLineItem,
  ChargebeePortalSession,
  ChargebeeSubscription,
  ChargebeeTransaction,
  EventSource,
  PeriodUnit,
} from './types';

/** An item price the stand-in sells (ChargebeeSandboxOptions.itemPrices): a plan item price. */
export interface ChargebeeItemPriceOption {
  /** The item price id, e.g. `premium-USD-monthly`. */
  id: string;
  /** Its plan item's id, e.g. `premium`. */
  itemId: string;
  /** Shown on the checkout, portal and invoices, e.g. `Premium Monthly`. */
  name: string;
  /** Minor units (cents), e.g. 499. */
  price: number;
  currencyCode: string;
  periodUnit: PeriodUnit;
  period: number;
}

export interface EngineOptions {
  itemPrices: ChargebeeItemPriceOption[];
  clock: () => number;
  hostedPageTtlMs: number;
  portalTtlMs: number;
  downloadTtlMs: number;
}

type CustomerRecord = ChargebeeSnapshotCustomer;
type SubscriptionRecord = ChargebeeSnapshotSubscription;
type HostedPageRecord = ChargebeeSnapshotHostedPage;
type PortalRecord = ChargebeeSnapshotPortal;

export interface CheckoutInput {
  lines: ChargebeeSnapshotItem[];
  customerId: string | null;
  email: string | null;
  subscriptionId: string | null;
  redirectUrl: string | null;
  cancelUrl: string | null;
  passThruContent: string | null;
}

export interface PlanChange {
  itemPriceId: string;
  quantity: number | null;
  prorate: boolean;
}

interface Plan {
  next: SubscriptionRecord;
  charge: number;
  credit: number;
  allocated: number;
  fromCredits: number;
  amountDue: number;
  creditsAfter: number;
  estimate: ChargebeeEstimate;
}

interface Download {
  invoiceId: string;
  expiresAt: number;
}

const MAX_SESSIONS = 1000;
const MAX_RENEWALS = 1000;

function resolveCatalog(prices: ChargebeeItemPriceOption[]): Map<string, ChargebeeItemPriceOption> {
  if (!Array.isArray(prices) || prices.length === 0) throw new RangeError('chargebeeSandbox: itemPrices must list at least one item price');
  const catalog = new Map<string, ChargebeeItemPriceOption>();
  for (const p of prices) {
    const name = JSON.stringify(p?.id);
    if (typeof p?.id !== 'string' || !/^[\w.~@-]{1,100}$/.test(p.id)) throw new RangeError(`chargebeeSandbox: an item price id must be 1-100 letters, digits, _ . ~ @ or -, not ${name}`);
    if (catalog.has(p.id)) throw new RangeError(`chargebeeSandbox: item price ${p.id} is listed twice`);
    if (typeof p.itemId !== 'string' || !/^[\w.~@-]{1,100}$/.test(p.itemId)) throw new RangeError(`chargebeeSandbox: item price ${p.id}: itemId must be 1-100 letters, digits, _ . ~ @ or -`);
    if (typeof p.name !== 'string' || p.name.trim() === '') throw new RangeError(`chargebeeSandbox: item price ${p.id} needs a name`);
    if (!(Number.isInteger(p.price) && p.price >= 0)) throw new RangeError(`chargebeeSandbox: item price ${p.id}: price must be a whole number of minor units (cents) >= 0`);
    if (typeof p.currencyCode !== 'string' || !/^[A-Z]{3}$/.test(p.currencyCode)) throw new RangeError(`chargebeeSandbox: item price ${p.id}: currencyCode must be an ISO 4217 code such as USD`);
    if (p.periodUnit !== 'month' && p.periodUnit !== 'year') throw new RangeError(`chargebeeSandbox: item price ${p.id}: periodUnit must be 'month' or 'year'`);
    if (!(Number.isInteger(p.period) && p.period >= 1 && p.period <= 12)) throw new RangeError(`chargebeeSandbox: item price ${p.id}: period must be a whole number from 1 to 12`);
    catalog.set(p.id, { ...p });
  }
  return catalog;
}

function evict<T extends { expiresAt: number }>(map: Map<string, T>, nowS: number): void {
  for (const [id, v] of map) if (v.expiresAt <= nowS) map.delete(id);
  while (map.size >= MAX_SESSIONS) map.delete(map.keys().next().value as string);
}

/** A period unit for people: `month`, `3 months`, `year`. */
export function periodLabel(unit: PeriodUnit, period: number): string {
  return period === 1 ? unit : `${period} ${unit}s`;
}

/**
 * The Chargebee state of one registration: customers, subscriptions, invoices, hosted pages, portal
 * sessions, and the events it sends (through its WebhookQueue).
 */
export class ChargebeeEngine {
  readonly catalog: Map<string, ChargebeeItemPriceOption>;
  #customers = new Map<string, CustomerRecord>();
  #subscriptions = new Map<string, SubscriptionRecord>();
  #invoices = new Map<string, ChargebeeInvoice>();
  #pages = new Map<string, HostedPageRecord>();
  #portals = new Map<string, PortalRecord>();
  #downloads = new Map<string, Download>();
  #lastVersion = 0;
  #invoiceNumber = 0;
  onChange: (() => void) | null = null;

  constructor(
    readonly options: EngineOptions,
    readonly queue: WebhookQueue,
  ) {
    this.catalog = resolveCatalog(options.itemPrices);
  }

  now(): number {
    return this.options.clock();
  }

  /** The clock in Unix seconds. */
  sec(): number {
    return Math.floor(this.now() / 1000);
  }

  /** A resource_version: the clock in ms, strictly increasing across the registration. */
  #version(): number {
    this.#lastVersion = Math.max(Math.floor(this.now()), this.#lastVersion + 1);
    return this.#lastVersion;
  }

  #changed(): void {
    this.onChange?.();
  }

  #emit(type: string, source: EventSource, content: ChargebeeEventContent): void {
    this.queue.enqueue({
      id: randomId('ev_'),
      occurred_at: this.sec(),
      source,
      object: 'event',
      api_version: 'v2',
      event_type: type,
      webhook_status: 'scheduled',
      content: structuredClone(content),
    });
  }

  reset(): void {
    this.#customers.clear();
    this.#subscriptions.clear();
    this.#invoices.clear();
    this.#pages.clear();
    this.#portals.clear();
    this.#downloads.clear();
    this.#lastVersion = 0;
    this.#invoiceNumber = 0;
    this.#changed();
  }

  // ----- snapshots -----

  snapshot(): ChargebeeSnapshot {
    const nowS = this.sec();
    return {
      version: 1,
      takenAt: this.now(),
      sequence: { lastVersion: this.#lastVersion, invoiceNumber: this.#invoiceNumber },
      customers: [...this.#customers.values()].map((c) => structuredClone(c)),
      subscriptions: [...this.#subscriptions.values()].map((s) => structuredClone(s)),
      invoices: [...this.#invoices.values()].map((i) => structuredClone(i)),
      hostedPages: [...this.#pages.values()].filter((p) => p.expiresAt > nowS || p.state === 'succeeded').map((p) => structuredClone(p)),
      portals: [...this.#portals.values()].filter((p) => p.expiresAt > nowS).map((p) => structuredClone(p)),
    };
  }

  restore(input: unknown): void {
    const s = readSnapshot(input, this.catalog);
    let last = s.sequence.lastVersion;
    for (const x of [...s.customers, ...s.subscriptions, ...s.hostedPages]) last = Math.max(last, x.version);
    for (const inv of s.invoices) last = Math.max(last, inv.resource_version);
    let number = s.sequence.invoiceNumber;
    for (const inv of s.invoices) if (/^\d{1,15}$/.test(inv.id)) number = Math.max(number, Number(inv.id));
    this.#customers = new Map(s.customers.map((c) => [c.id, c]));
    this.#subscriptions = new Map(s.subscriptions.map((x) => [x.id, x]));
    this.#invoices = new Map(s.invoices.map((x) => [x.id, x]));
    this.#pages = new Map(s.hostedPages.map((x) => [x.id, x]));
    this.#portals = new Map(s.portals.map((x) => [x.id, x]));
    this.#downloads.clear();
    this.#lastVersion = Math.max(this.#lastVersion, last);
    this.#invoiceNumber = Math.max(this.#invoiceNumber, number);
    this.#changed();
  }

  // ----- JSON -----

  #customerJson(c: CustomerRecord): ChargebeeCustomer {
    return {
      id: c.id,
      ...(c.email ? { email: c.email } : {}),
      auto_collection: 'on',
      net_term_days: 0,
      allow_direct_debit: false,
      created_at: c.createdAt,
      taxability: 'taxable',
      updated_at: Math.floor(c.version / 1000),
      pii_cleared: 'active',
      channel: 'web',
      resource_version: c.version,
      deleted: false,
      object: 'customer',
      card_status: c.hasCard ? 'valid' : 'no_card',
      promotional_credits: 0,
      refundable_credits: c.refundableCredits,
      excess_payments: 0,
      unbilled_charges: 0,
      ...(c.currency ? { preferred_currency_code: c.currency } : {}),
    };
  }

  #total(items: ChargebeeSnapshotItem[]): number {
    return items.reduce((t, i) => t + this.catalog.get(i.itemPriceId)!.price * i.quantity, 0);
  }

  #subscriptionJson(s: SubscriptionRecord): ChargebeeSubscription {
    const total = this.#total(s.items);
    const months = s.periodUnit === 'year' ? 12 * s.period : s.period;
    const due = s.dueInvoiceId ? this.#invoices.get(s.dueInvoiceId) : undefined;
    return {
      id: s.id,
      customer_id: s.customerId,
      status: s.status,
      currency_code: s.currency,
      billing_period: s.period,
      billing_period_unit: s.periodUnit,
      current_term_start: s.termStart,
      current_term_end: s.termEnd,
      ...(s.nextBillingAt !== null ? { next_billing_at: s.nextBillingAt } : {}),
      started_at: s.startedAt,
      activated_at: s.activatedAt,
      created_at: s.createdAt,
      updated_at: Math.floor(s.version / 1000),
      ...(s.cancelledAt !== null ? { cancelled_at: s.cancelledAt } : {}),
      ...(s.cancelScheduleCreatedAt !== null ? { cancel_schedule_created_at: s.cancelScheduleCreatedAt } : {}),
      due_invoices_count: due ? 1 : 0,
      ...(due && s.dueSince !== null ? { due_since: s.dueSince, total_dues: due.amount_due } : {}),
      mrr: s.status === 'cancelled' ? 0 : Math.round(total / months),
      has_scheduled_changes: false,
      has_scheduled_advance_invoices: false,
      auto_collection: 'on',
      channel: 'web',
      subscription_items: s.items.map((i) => {
        const price = this.catalog.get(i.itemPriceId)!;
        return { item_price_id: i.itemPriceId, item_type: 'plan', quantity: i.quantity, unit_price: price.price, amount: price.price * i.quantity, free_quantity: 0, object: 'subscription_item' };
      }),
      resource_version: s.version,
      deleted: false,
      object: 'subscription',
    };
  }

  #content(sub: SubscriptionRecord, invoice?: ChargebeeInvoice): ChargebeeEventContent {
    return {
      subscription: this.#subscriptionJson(sub),
      customer: this.#customerJson(this.#customers.get(sub.customerId)!),
      ...(invoice ? { invoice: structuredClone(invoice) } : {}),
    };
  }

  /**
   * A payment event's content: as Chargebee's, the subscription, customer and invoice with the
   * `transaction` that paid (or failed to pay) the invoice, on the subscription's card.
   */
  #payment(sub: SubscriptionRecord, invoice: ChargebeeInvoice, status: 'success' | 'failure'): ChargebeeEventContent {
    const nowS = this.sec();
    const amount = status === 'success' ? invoice.amount_paid : invoice.amount_due;
    const version = this.#version();
    const transaction: ChargebeeTransaction = {
      id: randomId('txn_'),
      customer_id: sub.customerId,
      subscription_id: sub.id,
      payment_method: 'card',
      gateway: 'chargebee',
      type: 'payment',
      date: nowS,
      amount,
      currency_code: invoice.currency_code,
      status,
      masked_card_number: `************${sub.card.last4}`,
      ...(status === 'failure' ? { error_code: 'card_declined', error_text: 'The card was declined.' } : {}),
      linked_invoices: [{ invoice_id: invoice.id, applied_amount: amount, applied_at: nowS, invoice_date: invoice.date, invoice_total: invoice.total, invoice_status: invoice.status }],
      resource_version: version,
      updated_at: Math.floor(version / 1000),
      deleted: false,
      object: 'transaction',
    };
    return { ...this.#content(sub, invoice), transaction };
  }

  #pageJson(p: HostedPageRecord): ChargebeeHostedPage {
    const result = p.result;
    const sub = result ? this.#subscriptions.get(result.subscriptionId) : undefined;
    return {
      id: p.id,
      type: 'checkout_new',
      url: p.url,
      state: p.state,
      ...(p.passThruContent !== null ? { pass_thru_content: p.passThruContent } : {}),
      embed: false,
      created_at: p.createdAt,
      expires_at: p.expiresAt,
      updated_at: Math.floor(p.version / 1000),
      resource_version: p.version,
      ...(result && sub
        ? {
            content: {
              subscription: this.#subscriptionJson(sub),
              customer: this.#customerJson(this.#customers.get(result.customerId)!),
              invoice: structuredClone(this.#invoices.get(result.invoiceId)!),
            },
          }
        : {}),
      object: 'hosted_page',
    };
  }

  #portalJson(p: PortalRecord): ChargebeePortalSession {
    return {
      id: p.id,
      token: p.token,
      access_url: p.accessUrl,
      ...(p.redirectUrl !== null ? { redirect_url: p.redirectUrl } : {}),
      status: p.status,
      created_at: p.createdAt,
      expires_at: p.expiresAt,
      customer_id: p.customerId,
      ...(p.loginAt !== null ? { login_at: p.loginAt } : {}),
      ...(p.logoutAt !== null ? { logout_at: p.logoutAt } : {}),
      object: 'portal_session',
    };
  }

  // ----- reading -----

  #sub(id: string): SubscriptionRecord {
    const s = this.#subscriptions.get(id);
    if (!s) throw notFound('Subscription', id);
    return s;
  }

  subscription(id: string): { subscription: ChargebeeSubscription; customer: ChargebeeCustomer } {
    const s = this.#sub(id);
    return { subscription: this.#subscriptionJson(s), customer: this.#customerJson(this.#customers.get(s.customerId)!) };
  }

  /** Newest first, like Chargebee's default order (created_at descending). */
  subscriptions(filter: { customerId?: string; status?: string } = {}): Array<{ subscription: ChargebeeSubscription; customer: ChargebeeCustomer }> {
    return [...this.#subscriptions.values()]
      .filter((s) => (filter.customerId === undefined || s.customerId === filter.customerId) && (filter.status === undefined || s.status === filter.status))
      .reverse()
      .map((s) => ({ subscription: this.#subscriptionJson(s), customer: this.#customerJson(this.#customers.get(s.customerId)!) }));
  }

  customer(id: string): ChargebeeCustomer {
    const c = this.#customers.get(id);
    if (!c) throw notFound('Customer', id);
    return this.#customerJson(c);
  }

  customers(): ChargebeeCustomer[] {
    return [...this.#customers.values()].map((c) => this.#customerJson(c));
  }

  hasCustomer(id: string): boolean {
    return this.#customers.has(id);
  }

  invoice(id: string): ChargebeeInvoice {
    const inv = this.#invoices.get(id);
    if (!inv) throw notFound('Invoice', id);
    return structuredClone(inv);
  }

  /** Newest first. */
  invoices(filter: { subscriptionId?: string; customerId?: string } = {}): ChargebeeInvoice[] {
    return [...this.#invoices.values()]
      .filter((i) => (filter.subscriptionId === undefined || i.subscription_id === filter.subscriptionId) && (filter.customerId === undefined || i.customer_id === filter.customerId))
      .reverse()
      .map((i) => structuredClone(i));
  }

  card(subscriptionId: string): Card {
    return structuredClone(this.#sub(subscriptionId).card);
  }

  // ----- invoices -----

  #line(sub: SubscriptionRecord, item: ChargebeeSnapshotItem, from: number, to: number, unit: number): ChargebeeLineItem {
    const price = this.catalog.get(item.itemPriceId)!;
    return {
      id: randomId('li_'),
      date_from: from,
      date_to: to,
      unit_amount: unit,
      quantity: item.quantity,
      amount: unit * item.quantity,
      pricing_model: 'per_unit',
      is_taxed: false,
      tax_amount: 0,
      discount_amount: 0,
      item_level_discount_amount: 0,
      description: price.name,
      entity_type: 'plan_item_price',
      entity_id: price.id,
      subscription_id: sub.id,
      customer_id: sub.customerId,
      object: 'line_item',
    };
  }

  /** An invoice for these lines, its credits taken from the customer's refundable credits; paid unless `unpaid`. */
  #invoice(sub: SubscriptionRecord, lines: ChargebeeLineItem[], opts: { unpaid?: boolean; creditsApplied?: number } = {}): ChargebeeInvoice {
    const customer = this.#customers.get(sub.customerId)!;
    const total = lines.reduce((t, l) => t + l.amount, 0);
    let credits = opts.creditsApplied ?? 0;
    if (!opts.unpaid) {
      const fromBalance = Math.min(customer.refundableCredits, total - credits);
      customer.refundableCredits -= fromBalance;
      if (fromBalance > 0) customer.version = this.#version();
      credits += fromBalance;
    }
    const nowS = this.sec();
    const version = this.#version();
    const paid = opts.unpaid ? 0 : total - credits;
    this.#invoiceNumber++;
    const inv: ChargebeeInvoice = {
      id: String(this.#invoiceNumber),
      customer_id: sub.customerId,
      subscription_id: sub.id,
      recurring: true,
      status: opts.unpaid ? 'payment_due' : 'paid',
      price_type: 'tax_exclusive',
      date: nowS,
      due_date: nowS,
      net_term_days: 0,
      exchange_rate: 1,
      currency_code: sub.currency,
      total,
      amount_paid: paid,
      amount_adjusted: 0,
      write_off_amount: 0,
      credits_applied: credits,
      amount_due: opts.unpaid ? total - credits : 0,
      ...(opts.unpaid ? { dunning_status: 'in_progress' as const } : { paid_at: nowS }),
      resource_version: version,
      updated_at: Math.floor(version / 1000),
      sub_total: total,
      tax: 0,
      first_invoice: ![...this.#invoices.values()].some((i) => i.subscription_id === sub.id),
      term_finalized: true,
      is_gifted: false,
      generated_at: nowS,
      amount_to_collect: opts.unpaid ? total - credits : 0,
      round_off_amount: 0,
      line_items: lines,
      deleted: false,
      object: 'invoice',
    };
    this.#invoices.set(inv.id, inv);
    return inv;
  }

  // ----- hosted checkout -----

  #price(itemPriceId: string, param: string): ChargebeeItemPriceOption {
    const price = this.catalog.get(itemPriceId);
    if (!price) throw new ChargebeeApiError(404, 'resource_not_found', `${param} : item price ${itemPriceId} is not present`, param);
    return price;
  }

  createHostedPage(input: CheckoutInput, urlOf: (id: string) => string): ChargebeeHostedPage {
    this.#price(input.lines[0]!.itemPriceId, 'subscription_items[item_price_id][0]');
    if (input.subscriptionId !== null && this.#subscriptions.has(input.subscriptionId)) {
      throw new ChargebeeApiError(400, 'duplicate_entry', `subscription[id] : The value ${input.subscriptionId} is already present.`, 'subscription[id]');
    }
    const nowS = this.sec();
    evict(this.#pages, nowS);
    const id = randomId('', 32);
    const page: HostedPageRecord = {
      id,
      url: urlOf(id),
      state: 'created',
      createdAt: nowS,
      expiresAt: nowS + Math.floor(this.options.hostedPageTtlMs / 1000),
      version: this.#version(),
      ...structuredClone(input),
      result: null,
    };
    this.#pages.set(id, page);
    this.#changed();
    return this.#pageJson(page);
  }

  hostedPage(id: string): ChargebeeHostedPage {
    const p = this.#pages.get(id);
    if (!p) throw notFound('Hosted page', id);
    return this.#pageJson(p);
  }

  /** The hosted page record for the page routes (null when unknown); `open` marks a created page requested. */
  page(id: string, open = false): Readonly<HostedPageRecord> | null {
    const p = this.#pages.get(id);
    if (!p) return null;
    if (open && p.state === 'created' && p.expiresAt > this.sec()) {
      p.state = 'requested';
      p.version = this.#version();
      this.#changed();
    }
    return structuredClone(p);
  }

  cancelPage(id: string): Readonly<HostedPageRecord> {
    const p = this.#pages.get(id);
    if (!p) throw notFound('Hosted page', id);
    if (p.state === 'created' || p.state === 'requested') {
      p.state = 'cancelled';
      p.version = this.#version();
      this.#changed();
    }
    return structuredClone(p);
  }

  /** Pays a hosted page: the customer (made or reused), the subscription, its first invoice; customer_created, subscription_created, payment_succeeded. */
  purchase(id: string, email: string, card: Card): Readonly<HostedPageRecord> {
    const p = this.#pages.get(id);
    if (!p) throw notFound('Hosted page', id);
    if (p.state === 'succeeded') return structuredClone(p);
    if (p.state === 'cancelled') throw invalidState('This checkout was cancelled.');
    const nowS = this.sec();
    if (p.expiresAt <= nowS) throw invalidState('This checkout has expired.');
    const price = this.catalog.get(p.lines[0]!.itemPriceId)!;
    if (p.subscriptionId !== null && this.#subscriptions.has(p.subscriptionId)) throw invalidState(`Subscription ${p.subscriptionId} already exists.`);
    const customerId = p.customerId ?? randomId();
    let customer = this.#customers.get(customerId);
    const newCustomer = !customer;
    if (!customer) {
      customer = { id: customerId, email, createdAt: nowS, version: this.#version(), refundableCredits: 0, currency: price.currencyCode, hasCard: true };
      this.#customers.set(customerId, customer);
    } else {
      customer.email ??= email;
      customer.hasCard = true;
      customer.currency ??= price.currencyCode;
      customer.version = this.#version();
    }
    const end = Math.floor(addInterval(nowS * 1000, price.periodUnit, price.period) / 1000);
    const sub: SubscriptionRecord = {
      id: p.subscriptionId ?? randomId(),
      customerId,
      status: 'active',
      currency: price.currencyCode,
      periodUnit: price.periodUnit,
      period: price.period,
      items: structuredClone(p.lines),
      termStart: nowS,
      termEnd: end,
      nextBillingAt: end,
      startedAt: nowS,
      activatedAt: nowS,
      createdAt: nowS,
      cancelledAt: null,
      cancelScheduleCreatedAt: null,
      dueInvoiceId: null,
      dueSince: null,
      version: 0,
      card,
    };
    this.#subscriptions.set(sub.id, sub);
    const inv = this.#invoice(sub, [this.#line(sub, sub.items[0]!, nowS, end, price.price)]);
    sub.version = this.#version();
    p.state = 'succeeded';
    p.result = { subscriptionId: sub.id, customerId, invoiceId: inv.id };
    p.version = this.#version();
    if (newCustomer) this.#emit('customer_created', 'hosted_page', { customer: this.#customerJson(customer) });
    this.#emit('subscription_created', 'hosted_page', this.#content(sub, inv));
    this.#emit('payment_succeeded', 'hosted_page', this.#payment(sub, inv, 'success'));
    this.#changed();
    return structuredClone(p);
  }

  // ----- lifecycle -----

  cancel(id: string, endOfTerm: boolean, source: EventSource, credit: 'none' | 'prorate' | 'full' = 'none'): { subscription: ChargebeeSubscription; customer: ChargebeeCustomer } {
    const sub = this.#sub(id);
    if (sub.status === 'cancelled') throw invalidState('The subscription is already cancelled.');
    const nowS = this.sec();
    if (endOfTerm) {
      if (sub.status === 'non_renewing') throw invalidState('The subscription is already scheduled for cancellation at the end of the term.');
      sub.status = 'non_renewing';
      sub.cancelledAt = sub.termEnd;
      sub.cancelScheduleCreatedAt = nowS;
      sub.nextBillingAt = null;
      sub.version = this.#version();
      this.#emit('subscription_cancellation_scheduled', source, this.#content(sub));
    } else {
      if (credit !== 'none' && sub.dueInvoiceId === null) {
        const total = this.#total(sub.items);
        const length = sub.termEnd - sub.termStart;
        const amount = credit === 'full' ? total : length > 0 ? Math.round((total * Math.max(0, sub.termEnd - nowS)) / length) : 0;
        if (amount > 0) {
          const customer = this.#customers.get(sub.customerId)!;
          customer.refundableCredits += amount;
          customer.version = this.#version();
        }
      }
      sub.status = 'cancelled';
      sub.cancelledAt = nowS;
      sub.cancelScheduleCreatedAt = null;
      sub.nextBillingAt = null;
      sub.version = this.#version();
      this.#emit('subscription_cancelled', source, this.#content(sub));
    }
    this.#changed();
    return this.subscription(id);
  }

  removeScheduledCancellation(id: string, source: EventSource): { subscription: ChargebeeSubscription; customer: ChargebeeCustomer } {
    const sub = this.#sub(id);
    if (sub.status !== 'non_renewing') throw invalidState('The subscription has no scheduled cancellation.');
    sub.status = 'active';
    sub.cancelledAt = null;
    sub.cancelScheduleCreatedAt = null;
    sub.nextBillingAt = sub.termEnd;
    sub.version = this.#version();
    this.#emit('subscription_scheduled_cancellation_removed', source, this.#content(sub));
    this.#changed();
    return this.subscription(id);
  }

  /** Cancelled → active: a new term from now, charged at once. */
  reactivate(id: string, source: EventSource): { subscription: ChargebeeSubscription; customer: ChargebeeCustomer; invoice: ChargebeeInvoice } {
    const sub = this.#sub(id);
    if (sub.status !== 'cancelled') throw invalidState('Only a cancelled subscription can be reactivated.');
    const nowS = this.sec();
    const end = Math.floor(addInterval(nowS * 1000, sub.periodUnit, sub.period) / 1000);
    sub.status = 'active';
    sub.termStart = nowS;
    sub.termEnd = end;
    sub.nextBillingAt = end;
    sub.activatedAt = nowS;
    sub.cancelledAt = null;
    sub.cancelScheduleCreatedAt = null;
    const inv = this.#invoice(
      sub,
      sub.items.map((i) => this.#line(sub, i, nowS, end, this.catalog.get(i.itemPriceId)!.price)),
    );
    sub.version = this.#version();
    this.#emit('subscription_reactivated', source, this.#content(sub, inv));
    if (inv.amount_paid > 0) this.#emit('payment_succeeded', source, this.#payment(sub, inv, 'success'));
    this.#changed();
    return { ...this.subscription(id), invoice: structuredClone(inv) };
  }

  /**
   * The change of a subscription's plan item price, with Chargebee's proration on the remaining term
   * (times in seconds): f = (current_term_end − now) / (current_term_end − current_term_start).
   * - same billing period: the term is kept; charge = round(new unit price × f) × quantity (an invoice
   *   now), credit = round(old unit price × f) × old quantity (a credit note for the unused time);
   * - another billing period: a new term starts now; charge = the new plan's full amount, credit as above;
   * - prorate=false: no charge and no credit (the new price applies from the next renewal), except the
   *   full charge of a new term when the period changes.
   * The credit is applied to the charge first (credits_applied); what is left of it joins the customer's
   * refundable_credits, used by later invoices (next_invoice_estimate shows it).
   */
  #plan(sub: SubscriptionRecord, change: PlanChange): Plan {
    const param = 'subscription_items[item_price_id][0]';
    const price = this.#price(change.itemPriceId, param);
    if (price.currencyCode !== sub.currency) throw invalidParam(param, `item price ${price.id} is in ${price.currencyCode}, the subscription in ${sub.currency}`);
    const customer = this.#customers.get(sub.customerId)!;
    const old = sub.items[0]!;
    const oldPrice = this.catalog.get(old.itemPriceId)!;
    const quantity = change.quantity ?? (old.itemPriceId === price.id ? old.quantity : 1);
    const nowS = this.sec();
    const length = sub.termEnd - sub.termStart;
    const f = length > 0 ? Math.min(1, Math.max(0, (sub.termEnd - nowS) / length)) : 0;
    const periodChanges = price.periodUnit !== sub.periodUnit || price.period !== sub.period;
    const unitCredit = change.prorate && sub.dueInvoiceId === null ? Math.round(oldPrice.price * f) : 0;
    const credit = unitCredit * old.quantity;
    const unitCharge = periodChanges ? price.price : change.prorate ? Math.round(price.price * f) : 0;
    const charge = unitCharge * quantity;
    const termStart = periodChanges ? nowS : sub.termStart;
    const termEnd = periodChanges ? Math.floor(addInterval(nowS * 1000, price.periodUnit, price.period) / 1000) : sub.termEnd;
    const allocated = Math.min(credit, charge);
    const fromCredits = Math.min(customer.refundableCredits, charge - allocated);
    const amountDue = charge - allocated - fromCredits;
    const creditsAfter = customer.refundableCredits - fromCredits + (credit - allocated);

    const next: SubscriptionRecord = structuredClone(sub);
    next.items = [{ itemPriceId: price.id, quantity }];
    if (periodChanges) {
      next.periodUnit = price.periodUnit;
      next.period = price.period;
      next.termStart = termStart;
      next.termEnd = termEnd;
      if (next.status === 'non_renewing') next.cancelledAt = termEnd;
      else next.nextBillingAt = termEnd;
    }

    const estimateLine = (item: ChargebeeSnapshotItem, from: number, to: number, unit: number): ChargebeeEstimateLineItem => {
      const { id: _id, ...rest } = this.#line(next, item, from, to, unit);
      return { id: randomId('li_'), ...rest };
    };
    const invoiceEstimate = (lines: ChargebeeEstimateLineItem[], credits: number): ChargebeeInvoiceEstimate => {
      const total = lines.reduce((t, l) => t + l.amount, 0);
      return {
        recurring: true,
        price_type: 'tax_exclusive',
        currency_code: sub.currency,
        sub_total: total,
        total,
        credits_applied: credits,
        amount_paid: 0,
        amount_due: total - credits,
        line_items: lines,
        taxes: [],
        line_item_taxes: [],
        line_item_discounts: [],
        round_off_amount: 0,
        customer_id: sub.customerId,
        object: 'invoice_estimate',
      };
    };
    const lastInvoice = [...this.#invoices.values()].filter((i) => i.subscription_id === sub.id).pop();
    const estimate: ChargebeeEstimate = {
      created_at: nowS,
      subscription_estimate: {
        id: sub.id,
        currency_code: sub.currency,
        status: next.status,
        ...(next.nextBillingAt !== null ? { next_billing_at: next.nextBillingAt } : {}),
        object: 'subscription_estimate',
      },
      object: 'estimate',
    };
    if (charge > 0) estimate.invoice_estimate = invoiceEstimate([estimateLine(next.items[0]!, nowS, termEnd, unitCharge)], allocated + fromCredits);
    if (credit > 0) {
      const note: ChargebeeCreditNoteEstimate = {
        reference_invoice_id: lastInvoice?.id ?? '',
        type: credit > allocated ? 'refundable' : 'adjustment',
        price_type: 'tax_exclusive',
        currency_code: sub.currency,
        sub_total: credit,
        total: credit,
        amount_allocated: allocated,
        amount_available: credit - allocated,
        line_items: [estimateLine(old, nowS, sub.termEnd, unitCredit)],
        taxes: [],
        line_item_taxes: [],
        line_item_discounts: [],
        round_off_amount: 0,
        customer_id: sub.customerId,
        object: 'credit_note_estimate',
      };
      estimate.credit_note_estimates = [note];
    }
    if (next.status === 'active' && next.nextBillingAt !== null) {
      const renewalEnd = Math.floor(addInterval(next.nextBillingAt * 1000, price.periodUnit, price.period) / 1000);
      const renewal = price.price * quantity;
      estimate.next_invoice_estimate = invoiceEstimate([estimateLine(next.items[0]!, next.nextBillingAt, renewalEnd, price.price)], Math.min(renewal, creditsAfter));
    }
    return { next, charge, credit, allocated, fromCredits, amountDue, creditsAfter, estimate };
  }

  /** POST /estimates/update_subscription_for_items: nothing changes. */
  estimate(id: string, change: PlanChange): ChargebeeEstimate {
    const sub = this.#sub(id);
    if (sub.status === 'cancelled') throw invalidState('The subscription is cancelled: reactivate it to change its items.');
    return this.#plan(sub, change).estimate;
  }

  /** POST /subscriptions/{id}/update_for_items: subscription_changed (and payment_succeeded when a charge was collected). */
  update(id: string, change: PlanChange, source: EventSource): { subscription: ChargebeeSubscription; customer: ChargebeeCustomer; invoice?: ChargebeeInvoice } {
    const sub = this.#sub(id);
    if (sub.status === 'cancelled') throw invalidState('The subscription is cancelled: reactivate it to change its items.');
    const plan = this.#plan(sub, change);
    if (JSON.stringify(plan.next) === JSON.stringify(sub) && plan.charge === 0 && plan.credit === 0) return this.subscription(id);
    const customer = this.#customers.get(sub.customerId)!;
    Object.assign(sub, plan.next);
    let inv: ChargebeeInvoice | undefined;
    if (plan.charge > 0) {
      const lines = (plan.estimate.invoice_estimate?.line_items ?? []).map((l) => ({ ...l, id: randomId('li_') }));
      inv = this.#invoice(sub, lines, { creditsApplied: plan.allocated });
    }
    customer.refundableCredits = plan.creditsAfter;
    customer.version = this.#version();
    sub.version = this.#version();
    this.#emit('subscription_changed', source, this.#content(sub, inv));
    if (inv && inv.amount_paid > 0) this.#emit('payment_succeeded', source, this.#payment(sub, inv, 'success'));
    this.#changed();
    return { ...this.subscription(id), ...(inv ? { invoice: structuredClone(inv) } : {}) };
  }

  /** As if the current term's payment had failed: an unpaid invoice, due_invoices_count 1, payment_failed. */
  failPayment(id: string): ChargebeeInvoice {
    const sub = this.#sub(id);
    if (sub.status === 'cancelled') throw new Error(`failPayment: ${id} is cancelled`);
    if (sub.dueInvoiceId !== null) throw new Error(`failPayment: ${id} already has an unpaid invoice`);
    const inv = this.#invoice(
      sub,
      sub.items.map((i) => this.#line(sub, i, sub.termStart, sub.termEnd, this.catalog.get(i.itemPriceId)!.price)),
      { unpaid: true },
    );
    sub.dueInvoiceId = inv.id;
    sub.dueSince = this.sec();
    sub.version = this.#version();
    this.#emit('payment_failed', 'scheduled_job', this.#payment(sub, inv, 'failure'));
    this.#changed();
    return structuredClone(inv);
  }

  /** The unpaid invoice of failPayment is collected: payment_succeeded, due_invoices_count 0. */
  recover(id: string): ChargebeeInvoice {
    const sub = this.#sub(id);
    const inv = sub.dueInvoiceId ? this.#invoices.get(sub.dueInvoiceId) : undefined;
    if (!inv) throw new Error(`recover: ${id} has no unpaid invoice (control.failPayment makes one)`);
    const nowS = this.sec();
    inv.status = 'paid';
    inv.amount_paid = inv.amount_due;
    inv.amount_due = 0;
    inv.amount_to_collect = 0;
    inv.paid_at = nowS;
    inv.dunning_status = 'success';
    inv.resource_version = this.#version();
    inv.updated_at = Math.floor(inv.resource_version / 1000);
    sub.dueInvoiceId = null;
    sub.dueSince = null;
    sub.version = this.#version();
    this.#emit('payment_succeeded', 'scheduled_job', this.#payment(sub, inv, 'success'));
    this.#changed();
    return structuredClone(inv);
  }

  /** Applies what the clock says is due: scheduled cancellations at term end, renewals at next_billing_at. */
  tick(): void {
    const nowS = this.sec();
    for (const sub of this.#subscriptions.values()) {
      for (let n = 0; n < MAX_RENEWALS; n++) {
        if (sub.status === 'non_renewing' && sub.termEnd <= nowS) {
          sub.status = 'cancelled';
          sub.cancelledAt = sub.termEnd;
          sub.version = this.#version();
          this.#emit('subscription_cancelled', 'scheduled_job', this.#content(sub));
          this.#changed();
          break;
        }
        if (sub.status !== 'active' || sub.nextBillingAt === null || sub.nextBillingAt > nowS) break;
        const start = sub.nextBillingAt;
        const end = Math.floor(addInterval(start * 1000, sub.periodUnit, sub.period) / 1000);
        sub.termStart = start;
        sub.termEnd = end;
        sub.nextBillingAt = end;
        const inv = this.#invoice(
          sub,
          sub.items.map((i) => this.#line(sub, i, start, end, this.catalog.get(i.itemPriceId)!.price)),
        );
        sub.version = this.#version();
        this.#emit('subscription_renewed', 'scheduled_job', this.#content(sub, inv));
        if (inv.amount_paid > 0) this.#emit('payment_succeeded', 'scheduled_job', this.#payment(sub, inv, 'success'));
        this.#changed();
      }
    }
  }

  // ----- portal -----

  portalSession(customerId: string, redirectUrl: string | null, accessUrlOf: (token: string) => string): ChargebeePortalSession {
    if (!this.#customers.has(customerId)) throw notFound('Customer', customerId, 'customer[id]');
    const nowS = this.sec();
    evict(this.#portals, nowS);
    const token = randomId('', 32);
    const p: PortalRecord = {
      id: randomId('portal_'),
      token,
      accessUrl: accessUrlOf(token),
      customerId,
      createdAt: nowS,
      expiresAt: nowS + Math.floor(this.options.portalTtlMs / 1000),
      redirectUrl,
      status: 'created',
      loginAt: null,
      logoutAt: null,
      loginSecret: null,
    };
    this.#portals.set(p.id, p);
    this.#changed();
    return this.#portalJson(p);
  }

  /** Uses an access URL's token (once): the session and its new cookie secret, or null (unknown, used or expired). */
  portalLogin(token: string): { session: ChargebeePortalSession; secret: string } | null {
    const nowS = this.sec();
    const p = [...this.#portals.values()].find((x) => x.token === token);
    if (p?.status !== 'created' || p.expiresAt <= nowS) return null;
    p.status = 'logged_in';
    p.loginAt = nowS;
    p.loginSecret = randomBytes(24).toString('base64url');
    p.expiresAt = Math.max(p.expiresAt, nowS + Math.floor(this.options.portalTtlMs / 1000));
    this.#changed();
    return { session: this.#portalJson(p), secret: p.loginSecret };
  }

  /** A logged-in portal session whose cookie secret matches, or null. */
  portal(id: string, secret: string | undefined, equal: (a: string, b: string) => boolean): ChargebeePortalSession | null {
    const p = this.#portals.get(id);
    if (p?.status !== 'logged_in' || p.loginSecret === null || !secret || !equal(secret, p.loginSecret) || p.expiresAt <= this.sec()) return null;
    return this.#portalJson(p);
  }

  portalLogout(id: string): ChargebeePortalSession | null {
    const p = this.#portals.get(id);
    if (!p) return null;
    p.status = 'logged_out';
    p.logoutAt = this.sec();
    p.loginSecret = null;
    this.#changed();
    return this.#portalJson(p);
  }

  portalApi(id: string): ChargebeePortalSession {
    const p = this.#portals.get(id);
    if (!p) throw notFound('Portal session', id);
    return this.#portalJson(p);
  }

  // ----- invoice documents -----

  /** POST /invoices/{id}/pdf: a short-lived download link. */
  download(id: string, urlOf: (token: string) => string): { download_url: string; valid_till: number; mime_type: string } {
    const inv = this.#invoices.get(id);
    if (!inv) throw notFound('Invoice', id);
    const nowS = this.sec();
    evict(this.#downloads, nowS);
    const token = randomBytes(24).toString('base64url');
    const validTill = nowS + Math.floor(this.options.downloadTtlMs / 1000);
    this.#downloads.set(token, { invoiceId: id, expiresAt: validTill });
    return { download_url: urlOf(token), valid_till: validTill, mime_type: 'text/html' };
  }

  downloadable(token: string): ChargebeeInvoice | null {
    const d = this.#downloads.get(token);
    if (!d || d.expiresAt <= this.sec()) return null;
    const inv = this.#invoices.get(d.invoiceId);
    return inv ? structuredClone(inv) : null;
  }
}
