import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PlanCatalogue } from '@tickety/api-contract';
import { describe, expect, it } from 'vitest';
import { chargebeeSubscriptionState, verifyChargebeeAuth } from '../../../src/services/billing/chargebee';
import { discordPublicKey, discordSubscriptionState, verifyDiscordSignature } from '../../../src/services/billing/discord';
import { fastspringSubscriptionState, verifyFastspringSignature } from '../../../src/services/billing/fastspring';
import { PriceBook } from '../../../src/services/billing/subscriptions';

// The vectors are the ones in docs/api.md ("Webhooks"), from the providers' documentation.
const RFC8032_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const DISCORD_SIG = '09047712d219a6627d677fe94ecb8845a120c47ce2110e9760e34a93ab43e7fac689a79a828c2eb380ed2c6e558fb604179b533be108d6354493c89e602e670b';
const prices = new PriceBook(PlanCatalogue.parse(JSON.parse(readFileSync(new URL('../../../config/plans.json', import.meta.url), 'utf8'))));

describe('Discord (Ed25519 over timestamp + body)', () => {
  const keys = [discordPublicKey(RFC8032_PUBLIC)];
  const body = Buffer.from('{"type":0}');
  const now = 1_700_000_000_000;

  it('accepts the reference vector, refuses a changed body, timestamp or signature', () => {
    expect(verifyDiscordSignature(body, DISCORD_SIG, '1700000000', keys, now, 300)).toBeNull();
    expect(verifyDiscordSignature(Buffer.from('{"type": 0}'), DISCORD_SIG, '1700000000', keys, now, 300)).toBe('no signature matches');
    expect(verifyDiscordSignature(body, DISCORD_SIG, '1700000001', keys, now, 300)).toBe('no signature matches');
    expect(verifyDiscordSignature(body, `${DISCORD_SIG.slice(0, -2)}00`, '1700000000', keys, now, 300)).toBe('no signature matches');
  });

  it('refuses missing headers, malformed ones and an old timestamp; any of several keys may match', () => {
    expect(verifyDiscordSignature(body, undefined, '1700000000', keys, now, 300)).toMatch(/missing/);
    expect(verifyDiscordSignature(body, 'zz', '1700000000', keys, now, 300)).toMatch(/hex/);
    expect(verifyDiscordSignature(body, DISCORD_SIG, '17e8', keys, now, 300)).toMatch(/seconds/);
    expect(verifyDiscordSignature(body, DISCORD_SIG, '1700000000', keys, now + 301_000, 300)).toMatch(/old/);
    const other = discordPublicKey('3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c');
    expect(verifyDiscordSignature(body, DISCORD_SIG, '1700000000', [other], now, 300)).toBe('no signature matches');
    expect(verifyDiscordSignature(body, DISCORD_SIG, '1700000000', [other, ...keys], now, 300)).toBeNull();
    expect(() => discordPublicKey('abc')).toThrow(/64 hexadecimal/);
  });

  it('maps an entitlement: live, ending (a set end), ended, deleted; an unknown SKU only when it grants nothing', () => {
    const base = { id: '1400000000000000001', sku_id: '1300000000000000801', application_id: '1200000000000000001', user_id: '1000000000000000101', type: 8, deleted: false, starts_at: '2026-01-01T00:00:00Z', ends_at: null };
    const at = Date.parse('2026-06-01T00:00:00Z');
    expect(discordSubscriptionState(base, prices, '1', at)).toMatchObject({ status: 'active', premium: true, planId: 'premium', userId: base.user_id, slots: 1, cancelAtPeriodEnd: false });
    expect(discordSubscriptionState({ ...base, ends_at: '2026-06-15T00:00:00Z' }, prices, '1', at)).toMatchObject({ status: 'ending', premium: true, accessEndsAt: '2026-06-15T00:00:00Z', cancelAtPeriodEnd: true });
    expect(discordSubscriptionState({ ...base, ends_at: '2026-05-15T00:00:00Z' }, prices, '1', at)).toMatchObject({ status: 'ended' });
    expect(discordSubscriptionState({ ...base, deleted: true }, prices, '1', at)).toMatchObject({ status: 'deleted', premium: false });
    expect(() => discordSubscriptionState({ ...base, sku_id: '1300000000000000999' }, prices, '1', at)).toThrow(/not in the plan catalogue/);
    expect(discordSubscriptionState({ ...base, sku_id: '1300000000000000999', deleted: true }, prices, '1', at)).toMatchObject({ planId: null, slots: null });
  });
});

describe('FastSpring (base64 HMAC-SHA256 of the body)', () => {
  const body = Buffer.from(
    '{"events":[{"id":"evt1","type":"subscription.activated","live":false,"processed":false,"created":1700000000000,"data":{"id":"sub1","state":"active"}}]}',
  );

  it('accepts the reference vector with any configured secret; refuses anything else', () => {
    expect(verifyFastspringSignature(body, 'YegfBU4Z98OzX3W3bb24ZRnimqMo0Q8GZXj0LJcBzpc=', ['fs_test_secret'])).toBeNull();
    expect(verifyFastspringSignature(body, 'YegfBU4Z98OzX3W3bb24ZRnimqMo0Q8GZXj0LJcBzpc=', ['old', 'fs_test_secret'])).toBeNull();
    expect(verifyFastspringSignature(body, 'YegfBU4Z98OzX3W3bb24ZRnimqMo0Q8GZXj0LJcBzpc=', ['other'])).toBe('no signature matches');
    expect(verifyFastspringSignature(Buffer.concat([body, Buffer.from(' ')]), 'YegfBU4Z98OzX3W3bb24ZRnimqMo0Q8GZXj0LJcBzpc=', ['fs_test_secret'])).toBe('no signature matches');
    // Freemius's hex form of the same MAC is not FastSpring's.
    const hex = createHmac('sha256', 'fs_test_secret').update(body).digest('hex');
    expect(verifyFastspringSignature(body, hex, ['fs_test_secret'])).not.toBeNull();
    expect(verifyFastspringSignature(body, undefined, ['fs_test_secret'])).toMatch(/missing/);
  });

  it('maps a subscription: tags give the checkout reference (never a user), canceled keeps premium until deactivation, overdue is past due', () => {
    const sub = {
      id: 'sub1',
      state: 'active',
      changed: 1_700_000_000_123,
      account: 'acc1',
      product: 'tickety-premium-yearly',
      quantity: 1,
      next: 1_731_536_000_000,
      tags: { checkout: 'fsc_0123456789abcdefABCDEF_-', userId: '1000000000000000101' },
    };
    expect(fastspringSubscriptionState(sub, prices)).toMatchObject({
      userId: null,
      checkout: 'fsc_0123456789abcdefABCDEF_-',
      ownerFromCustomer: false,
      customerId: 'acc1',
      premium: true,
      interval: 'year',
      version: '1700000000123000',
    });
    expect(fastspringSubscriptionState({ ...sub, state: 'canceled', deactivationDate: 1_731_536_000_000 }, prices)).toMatchObject({
      premium: true,
      cancelAtPeriodEnd: true,
      accessEndsAt: new Date(1_731_536_000_000).toISOString(),
    });
    expect(fastspringSubscriptionState({ ...sub, state: 'overdue' }, prices)).toMatchObject({ premium: false, pastDue: true });
    expect(fastspringSubscriptionState({ ...sub, state: 'deactivated' }, prices)).toMatchObject({ premium: false, pastDue: false });
    expect(fastspringSubscriptionState({ ...sub, tags: { userId: '1000000000000000101' } }, prices)).toMatchObject({ userId: null, checkout: null });
    expect(fastspringSubscriptionState({ ...sub, tags: { checkout: 'not a reference' } }, prices).checkout).toBeNull();
  });
});

describe('Chargebee (HTTP basic, constant time)', () => {
  it('accepts the reference credentials and refuses others', () => {
    expect(verifyChargebeeAuth('Basic Y2JfdXNlcjpjYl9wYXNz', ['cb_user:cb_pass'])).toBeNull();
    expect(verifyChargebeeAuth('Basic Y2JfdXNlcjpjYl9wYXNz', ['x:y', 'cb_user:cb_pass'])).toBeNull();
    expect(verifyChargebeeAuth('Basic Y2JfdXNlcjpjYl9wYXN0', ['cb_user:cb_pass'])).toMatch(/wrong/);
    expect(verifyChargebeeAuth('Bearer Y2JfdXNlcjpjYl9wYXNz', ['cb_user:cb_pass'])).toMatch(/basic/);
    expect(verifyChargebeeAuth(undefined, ['cb_user:cb_pass'])).toMatch(/missing/);
  });

  it('maps a subscription: non_renewing ends at the term, unpaid invoices are past due, resource_version orders', () => {
    const sub = {
      id: 'sub_cb1',
      customer_id: 'tk_1',
      status: 'active',
      current_term_end: 1_731_536_000,
      due_invoices_count: 0,
      subscription_items: [{ item_price_id: 'tickety-premium-USD-Monthly', item_type: 'plan', quantity: 1 }],
      resource_version: 1_700_000_000_456,
    };
    expect(chargebeeSubscriptionState(sub, prices)).toMatchObject({ premium: true, interval: 'month', customerId: 'tk_1', userId: null, version: '1700000000456000' });
    expect(chargebeeSubscriptionState({ ...sub, status: 'non_renewing', cancelled_at: 1_731_536_000 }, prices)).toMatchObject({
      premium: true,
      cancelAtPeriodEnd: true,
      accessEndsAt: new Date(1_731_536_000_000).toISOString(),
    });
    expect(chargebeeSubscriptionState({ ...sub, due_invoices_count: 1 }, prices)).toMatchObject({ premium: false, pastDue: true });
    expect(chargebeeSubscriptionState({ ...sub, status: 'cancelled' }, prices)).toMatchObject({ premium: false, pastDue: false });
  });
});
