import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml } from '../../kit/html';
import { sendPage } from '../../kit/http';
import { formatMinor } from '../../kit/money';
import { page } from '../../kit/page';
import type { PaddleEngine } from './engine';
import type { InvoiceLinks } from './invoice-links';
import type { PaddleCustomer, PaddleTransaction } from './types';

export interface InvoiceContext {
  engine: PaddleEngine;
  links: InvoiceLinks;
}

/** The invoice page's own rules: a wider page, the table, dark mode and print. */
const INVOICE_CSS = `
main{max-width:780px}
.inv-head{display:flex;justify-content:space-between;align-items:flex-start;gap:12px;flex-wrap:wrap}
.inv-head h1{margin-bottom:2px}
.parties{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:12px;margin:16px 0}
.parties h2,.label{margin:0 0 4px;font-size:13px;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:var(--muted)}
.parties p{margin:0}
.meta{margin:0 0 16px}
.table-wrap{overflow-x:auto;margin:0 0 12px}
table{width:100%;border-collapse:collapse;font-size:14px}
th,td{padding:8px 6px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{font-size:13px;color:var(--muted)}
.num{text-align:right;white-space:nowrap}
tfoot th{font-weight:600}
tfoot .grand th,tfoot .grand td{font-size:16px;font-weight:700;border-top:2px solid var(--text)}
.detail{display:block;color:var(--muted);font-size:13px}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.note{color:var(--muted);font-size:13px}
.nowrap{white-space:nowrap}
@media (prefers-color-scheme:dark){
:root{color-scheme:dark;--bg:#111318;--card:#1b1e25;--text:#e7e9ee;--muted:#a7aebb;--line:#363b47;--accent:#8ab4ff;--accent-dark:#a9c7ff;--red:#ff9b91;--red-bg:#3a1d1b;--green:#72e3a6;--green-bg:#12301f}
.sandbox{background:#3d2a0a;color:#ffd28f}
.status{background:#2a2e37}
button,.button{color:#0b1020}
}
@media print{
:root{color-scheme:light;--bg:#fff;--card:#fff;--text:#000;--muted:#404040;--line:#b0b0b0;--green:#000;--green-bg:#fff}
body{font-size:11pt;min-height:0}
main{max-width:none;padding:0}
.card{border:0;border-radius:0;padding:0;margin:0}
.no-print{display:none!important}
.sandbox{border:1px solid #000;background:#fff;color:#000}
tr{break-inside:avoid}
}
`.trim();

function date(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

function shortDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

function notAvailable(reply: FastifyReply, heading: string, detail: string): FastifyReply {
  return sendPage(
    reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex'),
    404,
    page({
      title: heading,
      css: INVOICE_CSS,
      body: `<p class="sandbox">Sandbox invoice</p>
<section class="card"><h1>${escapeHtml(heading)}</h1><div class="alert" role="alert"><p>${escapeHtml(detail)}</p></div>
<p class="muted">Invoice links are temporary (they work for one hour). Open the receipt again from the app to get a new link.</p></section>`,
    }),
  );
}

/** The printable invoice of a completed transaction. */
function invoiceHtml(txn: PaddleTransaction, customer: PaddleCustomer | null): { title: string; body: string } {
  const cur = txn.currency_code;
  const money = (minor: string | number) => formatMinor(Number(minor), cur);
  const totals = txn.details.totals;
  const number = txn.invoice_number ?? txn.id;
  const billed = txn.billed_at ?? txn.created_at;
  const paid = txn.payments.filter((p) => p.status === 'captured');
  const paidTotal = paid.reduce((sum, p) => sum + Number(p.amount), 0);
  const card = paid[0]?.method_details.card;
  const period = txn.billing_period ? `${date(txn.billing_period.starts_at)} – ${date(txn.billing_period.ends_at)}` : null;
  const rows = txn.details.line_items
    .map((line) => {
      const item = txn.items.find((i) => i.price.id === line.price_id);
      const priceName = item ? item.price.description : line.price_id;
      const proration = line.proration
        ? `<span class="detail">Prorated: ${escapeHtml((Number(line.proration.rate) * 100).toFixed(2))}% of ${escapeHtml(shortDate(line.proration.billing_period.starts_at))} – ${escapeHtml(shortDate(line.proration.billing_period.ends_at))}</span>`
        : '';
      return `<tr><td>${escapeHtml(line.product.name)}<span class="detail">${escapeHtml(priceName)}</span>${proration}</td><td class="num">${line.quantity}</td><td class="num">${escapeHtml(money(line.unit_totals.total))}</td><td class="num">${escapeHtml(money(line.totals.total))}</td></tr>`;
    })
    .join('\n');
  const foot = [
    ['Subtotal', money(totals.subtotal)],
    ...(Number(totals.discount) > 0 ? [['Discount', `−${money(totals.discount)}`]] : []),
    ['Tax', money(totals.tax)],
    ['Total', money(totals.total)],
    ...(Number(totals.credit) > 0 ? [['Credit applied', `−${money(totals.credit)}`]] : []),
  ]
    .map(([label, value]) => `<tr><th scope="row" colspan="3">${escapeHtml(label!)}</th><td class="num">${escapeHtml(value!)}</td></tr>`)
    .join('\n');
  const who = customer
    ? `${customer.name ? `${escapeHtml(customer.name)}<br>` : ''}${escapeHtml(customer.email)}<br><span class="muted">Customer <code>${escapeHtml(customer.id)}</code></span>`
    : `<span class="muted">Customer <code>${escapeHtml(txn.customer_id ?? '')}</code></span>`;
  const status = Number(totals.balance) === 0 ? 'Paid' : 'Due';
  const body = `<p class="sandbox">Sandbox invoice: not a real tax document</p>
<article class="card" aria-labelledby="invoice-title">
<header class="inv-head">
<div><h1 id="invoice-title">Invoice <span class="nowrap">${escapeHtml(number)}</span></h1><p class="muted">Issued ${escapeHtml(date(billed))}</p></div>
<p><span class="status ${status === 'Paid' ? 'active' : 'past_due'}">${status}</span></p>
</header>
<div class="parties">
<section aria-labelledby="seller"><h2 id="seller">From</h2><p>Paddle sandbox<br><span class="muted">Merchant of record (stand-in for Paddle.com)</span></p></section>
<section aria-labelledby="buyer"><h2 id="buyer">Billed to</h2><p>${who}</p></section>
</div>
<dl class="meta">
<dt>Invoice number</dt><dd>${escapeHtml(number)}</dd>
<dt>Invoice date</dt><dd>${escapeHtml(date(billed))}</dd>
${period ? `<dt>Billing period</dt><dd>${escapeHtml(period)}</dd>\n` : ''}<dt>Currency</dt><dd>${escapeHtml(cur)}</dd>
<dt>Transaction</dt><dd><code>${escapeHtml(txn.id)}</code></dd>
<dt>Subscription</dt><dd><code>${escapeHtml(txn.subscription_id ?? '')}</code></dd>
</dl>
<div class="table-wrap">
<table>
<caption class="visually-hidden">Items and totals of invoice ${escapeHtml(number)}, in ${escapeHtml(cur)}</caption>
<thead><tr><th scope="col">Description</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>
${foot}
<tr class="grand"><th scope="row" colspan="3">Amount due</th><td class="num">${escapeHtml(money(totals.grand_total))}</td></tr>
<tr><th scope="row" colspan="3">Amount paid</th><td class="num">${escapeHtml(money(paidTotal))}</td></tr>
<tr><th scope="row" colspan="3">Balance</th><td class="num">${escapeHtml(money(totals.balance))}</td></tr>
</tfoot>
</table>
</div>
${card && paid[0] ? `<p>Paid with ${escapeHtml(card.type === 'visa' ? 'Visa' : 'Mastercard')} ending in ${escapeHtml(card.last4)} on ${escapeHtml(date(paid[0].captured_at ?? paid[0].created_at))}.</p>\n` : ''}<p class="note">All amounts in ${escapeHtml(cur)}. No tax is charged in the sandbox.</p>
<p class="no-print"><button id="print" type="button" hidden>Print or save as PDF</button></p>
</article>`;
  return { title: `Invoice ${number}`, body };
}

const INVOICE_JS = `'use strict';
(function () {
  var button = document.getElementById('print');
  if (!button) return;
  button.hidden = false;
  button.addEventListener('click', function () { window.print(); });
})();
`;

/**
 * The documents GET /transactions/{id}/invoice links to: `GET /invoices/:token` answers the invoice as a
 * printable HTML page while the link is fresh, else 404 with a page saying why; `GET /invoice.js` is
 * its print button.
 */
export function invoiceRoutes(app: FastifyInstance, ctx: InvoiceContext): void {
  const { engine, links } = ctx;

  app.get('/invoice.js', async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(INVOICE_JS),
  );

  app.get('/invoices/:token', async (req, reply) => {
    const { token } = req.params as { token: string };
    const link = links.read(token);
    if (!link.ok) {
      return link.reason === 'expired'
        ? notAvailable(reply, 'This invoice link has expired', 'The link to this invoice is no longer valid.')
        : notAvailable(reply, 'This invoice link is not valid', 'No invoice can be found at this address. Check that the link was copied whole.');
    }
    let txn: PaddleTransaction;
    try {
      txn = engine.invoiceable(link.transactionId);
    } catch {
      return notAvailable(reply, 'This invoice is not available', 'The transaction of this invoice no longer exists in the sandbox.');
    }
    const customer = engine.customers().find((c) => c.id === txn.customer_id) ?? null;
    const { title, body } = invoiceHtml(txn, customer);
    const filename = `invoice-${(txn.invoice_number ?? txn.id).replace(/[^\w-]/g, '_')}.html`;
    return sendPage(
      reply.header('content-disposition', `inline; filename="${filename}"`).header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex'),
      200,
      page({ title, body, css: INVOICE_CSS, scriptPath: '../invoice.js' }),
    );
  });
}
