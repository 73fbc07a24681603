import type { Card } from '../../kit/cards';
/** The Paddle Billing objects the stand-in answers and notifies with (the fields it fills in). */

export type Interval = 'month' | 'year';
export type SubscriptionStatus = 'active' | 'past_due' | 'canceled';
export type TransactionStatus = 'draft' | 'ready' | 'paid' | 'completed' | 'past_due';
export type TransactionOrigin = 'api' | 'web' | 'subscription_recurring' | 'subscription_update' | 'subscription_payment_method_change';

export interface PaddleMoney {
  /** Minor units (cents) as a decimal string, like Paddle. */
  amount: string;
  currency_code: string;
}

export interface PaddleProduct {
  id: string;
  name: string;
  description: string | null;
  type: 'standard';
  tax_category: 'standard';
  image_url: string | null;
  custom_data: null;
  status: 'active';
  import_meta: null;
  created_at: string;
  updated_at: string;
}

export interface PaddlePrice {
  id: string;
  product_id: string;
  type: 'standard';
  description: string;
  name: string;
  billing_cycle: { interval: Interval; frequency: 1 };
  trial_period: null;
  tax_mode: 'account_setting';
  unit_price: PaddleMoney;
  unit_price_overrides: [];
  quantity: { minimum: number; maximum: number };
  status: 'active';
  custom_data: null;
  import_meta: null;
  created_at: string;
  updated_at: string;
}

export interface PaddleSubscriptionItem {
  status: 'active';
  quantity: number;
  recurring: true;
  created_at: string;
  updated_at: string;
  previously_billed_at: string | null;
  next_billed_at: string | null;
  trial_dates: null;
  price: PaddlePrice;
  product: PaddleProduct;
}

export interface PaddleScheduledChange {
  action: 'cancel';
  effective_at: string;
  resume_at: null;
}

export interface PaddleSubscription {
  id: string;
  status: SubscriptionStatus;
  customer_id: string;
  address_id: string;
  business_id: null;
  currency_code: string;
  created_at: string;
  updated_at: string;
  started_at: string;
  first_billed_at: string;
  next_billed_at: string | null;
  paused_at: null;
  canceled_at: string | null;
  collection_mode: 'automatic';
  billing_details: null;
  current_billing_period: { starts_at: string; ends_at: string } | null;
  billing_cycle: { interval: Interval; frequency: 1 };
  scheduled_change: PaddleScheduledChange | null;
  items: PaddleSubscriptionItem[];
  custom_data: Record<string, unknown> | null;
  discount: null;
  import_meta: null;
  /** Only in API answers (Paddle leaves them out of notifications). */
  management_urls?: { update_payment_method: string | null; cancel: string };
}

export type PaddleCard = Card;

export interface PaddlePayment {
  amount: string;
  status: 'captured' | 'error';
  created_at: string;
  captured_at: string | null;
  error_code: string | null;
  payment_attempt_id: string;
  stored_payment_method_id: string;
  payment_method_id: string;
  method_details: { type: 'card'; card: PaddleCard };
}

export interface PaddleTotals {
  subtotal: string;
  tax: string;
  discount: string;
  total: string;
  credit: string;
  credit_to_balance: string;
  balance: string;
  grand_total: string;
  fee: null;
  earnings: null;
  currency_code: string;
}

export interface PaddleTransactionItem {
  price: PaddlePrice;
  quantity: number;
  proration: { rate: string; billing_period: { starts_at: string; ends_at: string } } | null;
}

export interface PaddleLineItem {
  id: string;
  price_id: string;
  quantity: number;
  proration: PaddleTransactionItem['proration'];
  tax_rate: string;
  unit_totals: { subtotal: string; discount: string; tax: string; total: string };
  totals: { subtotal: string; discount: string; tax: string; total: string };
  product: PaddleProduct;
}

export interface PaddleTransaction {
  id: string;
  status: TransactionStatus;
  /** Null on a transaction the API created (POST /transactions) until its checkout is paid. */
  customer_id: string | null;
  address_id: string | null;
  business_id: null;
  custom_data: Record<string, unknown> | null;
  origin: TransactionOrigin;
  collection_mode: 'automatic';
  /** Null on a transaction the API created until its checkout is paid (the subscription it makes). */
  subscription_id: string | null;
  invoice_id: string | null;
  invoice_number: string | null;
  billing_details: null;
  billing_period: { starts_at: string; ends_at: string } | null;
  currency_code: string;
  discount_id: null;
  created_at: string;
  updated_at: string;
  billed_at: string | null;
  items: PaddleTransactionItem[];
  details: { tax_rates_used: []; totals: PaddleTotals; line_items: PaddleLineItem[] };
  payments: PaddlePayment[];
  checkout: { url: string | null };
}

export interface PaddleCustomer {
  id: string;
  name: string | null;
  email: string;
  marketing_consent: false;
  status: 'active';
  custom_data: null;
  locale: 'en';
  created_at: string;
  updated_at: string;
  import_meta: null;
}

export interface PaddleUpdateSummary {
  credit: PaddleMoney;
  charge: PaddleMoney;
  result: PaddleMoney & { action: 'charge' | 'credit' };
}

export interface PaddlePortalSession {
  id: string;
  customer_id: string;
  urls: {
    general: { overview: string };
    subscriptions: Array<{ id: string; cancel_subscription: string; update_subscription_payment_method: string }>;
  };
  created_at: string;
}

/** `details` of a preview transaction (Paddle's TransactionDetailsPreview: line items without ids). */
export interface PaddlePreviewDetails {
  tax_rates_used: [];
  totals: PaddleTotals;
  line_items: Array<Omit<PaddleLineItem, 'id'>>;
}

/** `immediate_transaction` / `next_transaction` of a subscription update preview. */
export interface PaddlePreviewTransaction {
  billing_period: { starts_at: string; ends_at: string };
  details: PaddlePreviewDetails;
  /** Always empty here: the stand-in applies credit on the transaction (totals.credit), not as adjustments. */
  adjustments: [];
}
