/** The FastSpring objects the stand-in answers and notifies with (the fields it fills in). */

export type IntervalUnit = 'month' | 'year';
export type SubscriptionState = 'active' | 'canceled' | 'overdue' | 'deactivated';

/** A subscription product the stand-in sells (the plugin's `products` option). */
export interface FastspringProductOption {
  /** The catalog product path, e.g. `tickety-premium-monthly`. */
  path: string;
  /** Its display name, e.g. `Tickety Premium (monthly)`. */
  display: string;
  /** Unit price in major units (4.99). */
  price: number;
  /** ISO 4217 code, e.g. `USD`. */
  currency: string;
  intervalUnit: IntervalUnit;
  intervalLength: number;
}

/** A subscription as `GET /subscriptions/{id}` answers it and the subscription.* webhooks carry it. */
export interface FastspringSubscription {
  id: string;
  subscription: string;
  active: boolean;
  state: SubscriptionState;
  changed: number;
  changedValue: number;
  changedInSeconds: number;
  changedDisplay: string;
  live: false;
  currency: string;
  account: string;
  product: string;
  sku: null;
  display: string;
  quantity: number;
  adhoc: false;
  autoRenew: true;
  price: number;
  priceDisplay: string;
  priceInPayoutCurrency: number;
  priceInPayoutCurrencyDisplay: string;
  discount: number;
  discountDisplay: string;
  discountInPayoutCurrency: number;
  discountInPayoutCurrencyDisplay: string;
  subtotal: number;
  subtotalDisplay: string;
  subtotalInPayoutCurrency: number;
  subtotalInPayoutCurrencyDisplay: string;
  next: number | null;
  nextValue: number | null;
  nextInSeconds: number | null;
  nextDisplay: string | null;
  end: null;
  endValue: null;
  endInSeconds: null;
  endDisplay: null;
  canceledDate: number | null;
  canceledDateValue: number | null;
  canceledDateInSeconds: number | null;
  canceledDateDisplay: string | null;
  deactivationDate: number | null;
  deactivationDateValue: number | null;
  deactivationDateInSeconds: number | null;
  deactivationDateDisplay: string | null;
  sequence: number;
  periods: null;
  remainingPeriods: null;
  begin: number;
  beginValue: number;
  beginInSeconds: number;
  beginDisplay: string;
  intervalUnit: IntervalUnit;
  intervalLength: number;
  nextChargeCurrency: string;
  nextChargeDate: number | null;
  nextChargeDateValue: number | null;
  nextChargeDateInSeconds: number | null;
  nextChargeDateDisplay: string | null;
  nextChargePreTax: number;
  nextChargePreTaxDisplay: string;
  nextChargeTotal: number;
  nextChargeTotalDisplay: string;
  /** The builder's tags, verbatim. */
  tags: Record<string, unknown>;
  initialOrderId: string;
  initialOrderReference: string;
}

export interface FastspringOrderItem {
  product: string;
  quantity: number;
  display: string;
  sku: null;
  imageUrl: null;
  subtotal: number;
  subtotalDisplay: string;
  subtotalInPayoutCurrency: number;
  subtotalInPayoutCurrencyDisplay: string;
  discount: number;
  discountDisplay: string;
  discountInPayoutCurrency: number;
  discountInPayoutCurrencyDisplay: string;
  /** The subscription this item made or charged. */
  subscription: string;
}

/** An order as `GET /orders/{id}` answers it and `order.completed` carries it. */
export interface FastspringOrder {
  order: string;
  id: string;
  reference: string;
  buyerReference: null;
  ipAddress: string;
  completed: true;
  changed: number;
  changedValue: number;
  changedInSeconds: number;
  changedDisplay: string;
  changedDisplayISO8601: string;
  language: 'en';
  live: false;
  currency: string;
  payoutCurrency: string;
  quote: null;
  invoiceUrl: string;
  account: string;
  total: number;
  totalDisplay: string;
  totalInPayoutCurrency: number;
  totalInPayoutCurrencyDisplay: string;
  tax: number;
  taxDisplay: string;
  taxInPayoutCurrency: number;
  taxInPayoutCurrencyDisplay: string;
  subtotal: number;
  subtotalDisplay: string;
  subtotalInPayoutCurrency: number;
  subtotalInPayoutCurrencyDisplay: string;
  discount: number;
  discountDisplay: string;
  discountInPayoutCurrency: number;
  discountInPayoutCurrencyDisplay: string;
  payment: { type: 'test'; creditcard: 'visa' | 'mastercard'; cardEnding: string };
  customer: { first: string | null; last: string | null; email: string; company: null; phone: null; subscribed: true };
  address: { country: 'US'; display: 'US' };
  recipients: [];
  notes: [];
  /** `true` for subscription rebills and proration charges. */
  rebill: boolean;
  /** The builder's tags (checkout orders), else {}. */
  tags: Record<string, unknown>;
  items: FastspringOrderItem[];
}

/** An account as `GET /accounts/{id}` answers it. */
export interface FastspringAccount {
  id: string;
  account: string;
  action: 'account.get';
  result: 'success';
  contact: { first: string | null; last: string | null; email: string; company: null; phone: null; subscribed: true };
  language: 'en';
  country: 'US';
  lookup: { global: string };
  url: string;
}

/** One webhook event, as POSTed (inside `{"events":[...]}`) and listed by `GET /events/unprocessed`. */
export interface FastspringEvent {
  id: string;
  type: string;
  live: false;
  processed: boolean;
  created: number;
  data: unknown;
}
