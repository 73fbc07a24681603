/** The Chargebee API v2 (Product Catalog 2.0) objects the stand-in answers and notifies with (the fields it fills in). Times are Unix seconds, amounts minor units (cents). */

export type PeriodUnit = 'month' | 'year';
export type SubscriptionStatus = 'in_trial' | 'active' | 'non_renewing' | 'paused' | 'cancelled';
export type HostedPageState = 'created' | 'requested' | 'succeeded' | 'cancelled' | 'failed';
export type EventSource = 'hosted_page' | 'api' | 'scheduled_job' | 'portal';

export interface ChargebeeSubscriptionItem {
  item_price_id: string;
  item_type: 'plan';
  quantity: number;
  unit_price: number;
  amount: number;
  free_quantity: 0;
  object: 'subscription_item';
}

export interface ChargebeeSubscription {
  id: string;
  customer_id: string;
  status: SubscriptionStatus;
  currency_code: string;
  billing_period: number;
  billing_period_unit: PeriodUnit;
  current_term_start?: number;
  current_term_end?: number;
  next_billing_at?: number;
  started_at: number;
  activated_at: number;
  created_at: number;
  updated_at: number;
  cancelled_at?: number;
  cancel_schedule_created_at?: number;
  due_invoices_count: number;
  due_since?: number;
  total_dues?: number;
  mrr: number;
  has_scheduled_changes: false;
  has_scheduled_advance_invoices: false;
  auto_collection: 'on';
  channel: 'web';
  subscription_items: ChargebeeSubscriptionItem[];
  meta_data?: Record<string, unknown>;
  resource_version: number;
  deleted: false;
  object: 'subscription';
}

export interface ChargebeeCustomer {
  id: string;
  email?: string;
  auto_collection: 'on';
  net_term_days: 0;
  allow_direct_debit: false;
  created_at: number;
  taxability: 'taxable';
  updated_at: number;
  pii_cleared: 'active';
  channel: 'web';
  resource_version: number;
  deleted: false;
  object: 'customer';
  card_status: 'valid' | 'no_card';
  promotional_credits: 0;
  refundable_credits: number;
  excess_payments: 0;
  unbilled_charges: 0;
  preferred_currency_code?: string;
}

export interface ChargebeeLineItem {
  id: string;
  date_from: number;
  date_to: number;
  unit_amount: number;
  quantity: number;
  amount: number;
  pricing_model: 'per_unit';
  is_taxed: false;
  tax_amount: 0;
  discount_amount: 0;
  item_level_discount_amount: 0;
  description: string;
  entity_type: 'plan_item_price';
  entity_id: string;
  subscription_id: string;
  customer_id: string;
  object: 'line_item';
}

export interface ChargebeeInvoice {
  id: string;
  customer_id: string;
  subscription_id: string;
  recurring: true;
  status: 'paid' | 'payment_due';
  price_type: 'tax_exclusive';
  date: number;
  due_date: number;
  net_term_days: 0;
  exchange_rate: 1;
  currency_code: string;
  total: number;
  amount_paid: number;
  amount_adjusted: 0;
  write_off_amount: 0;
  credits_applied: number;
  amount_due: number;
  paid_at?: number;
  dunning_status?: 'in_progress' | 'success';
  resource_version: number;
  updated_at: number;
  sub_total: number;
  tax: 0;
  first_invoice: boolean;
  term_finalized: true;
  is_gifted: false;
  generated_at: number;
  amount_to_collect: number;
  round_off_amount: 0;
  line_items: ChargebeeLineItem[];
  deleted: false;
  object: 'invoice';
}

export interface ChargebeeHostedPage {
  id: string;
  type: 'checkout_new';
  url: string;
  state: HostedPageState;
  pass_thru_content?: string;
  embed: false;
  created_at: number;
  expires_at: number;
  updated_at: number;
  resource_version: number;
  content?: { subscription: ChargebeeSubscription; customer: ChargebeeCustomer; invoice: ChargebeeInvoice };
  object: 'hosted_page';
}

export interface ChargebeePortalSession {
  id: string;
  token: string;
  access_url: string;
  redirect_url?: string;
  status: 'created' | 'logged_in' | 'logged_out';
  created_at: number;
  expires_at: number;
  customer_id: string;
  login_at?: number;
  logout_at?: number;
  object: 'portal_session';
}

/** A payment attempt (the content of payment_succeeded and payment_failed): always by card here. */
export interface ChargebeeTransaction {
  id: string;
  customer_id: string;
  subscription_id: string;
  payment_method: 'card';
  gateway: 'chargebee';
  type: 'payment';
  date: number;
  amount: number;
  currency_code: string;
  status: 'success' | 'failure';
  /** `************4242`. */
  masked_card_number: string;
  error_code?: string;
  error_text?: string;
  linked_invoices: Array<{ invoice_id: string; applied_amount: number; applied_at: number; invoice_date: number; invoice_total: number; invoice_status: ChargebeeInvoice['status'] }>;
  resource_version: number;
  updated_at: number;
  deleted: false;
  object: 'transaction';
}

export interface ChargebeeEventContent {
  subscription?: ChargebeeSubscription;
  customer?: ChargebeeCustomer;
  invoice?: ChargebeeInvoice;
  transaction?: ChargebeeTransaction;
}

/** An event as POSTed to the webhook URL (webhook_status is always `scheduled` there, as Chargebee sends it). */
export interface ChargebeeEvent {
  id: string;
  occurred_at: number;
  source: EventSource;
  object: 'event';
  api_version: 'v2';
  event_type: string;
  webhook_status: 'scheduled';
  content: ChargebeeEventContent;
}

export interface ChargebeeEstimateLineItem {
  id: string;
  subscription_id: string;
  date_from: number;
  date_to: number;
  unit_amount: number;
  quantity: number;
  amount: number;
  pricing_model: 'per_unit';
  is_taxed: false;
  tax_amount: 0;
  discount_amount: 0;
  item_level_discount_amount: 0;
  description: string;
  entity_type: 'plan_item_price';
  entity_id: string;
  customer_id: string;
  object: 'line_item';
}

export interface ChargebeeInvoiceEstimate {
  recurring: true;
  price_type: 'tax_exclusive';
  currency_code: string;
  sub_total: number;
  total: number;
  credits_applied: number;
  amount_paid: 0;
  amount_due: number;
  line_items: ChargebeeEstimateLineItem[];
  taxes: [];
  line_item_taxes: [];
  line_item_discounts: [];
  round_off_amount: 0;
  customer_id: string;
  object: 'invoice_estimate';
}

export interface ChargebeeCreditNoteEstimate {
  reference_invoice_id: string;
  type: 'adjustment' | 'refundable';
  price_type: 'tax_exclusive';
  currency_code: string;
  sub_total: number;
  total: number;
  amount_allocated: number;
  amount_available: number;
  line_items: ChargebeeEstimateLineItem[];
  taxes: [];
  line_item_taxes: [];
  line_item_discounts: [];
  round_off_amount: 0;
  customer_id: string;
  object: 'credit_note_estimate';
}

export interface ChargebeeEstimate {
  created_at: number;
  subscription_estimate: {
    id: string;
    currency_code: string;
    status: SubscriptionStatus;
    next_billing_at?: number;
    object: 'subscription_estimate';
  };
  invoice_estimate?: ChargebeeInvoiceEstimate;
  credit_note_estimates?: ChargebeeCreditNoteEstimate[];
  next_invoice_estimate?: ChargebeeInvoiceEstimate;
  object: 'estimate';
}
