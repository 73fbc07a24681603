import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlanCatalogue } from '@tickety/api-contract';
import { afterAll, describe, expect, it } from 'vitest';
import { API_DIR } from '../../src/config';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';

const dir = mkdtempSync(join(tmpdir(), 'tickety-plans-'));
const customFile = join(dir, 'plans.json');
writeFileSync(
  customFile,
  JSON.stringify([
    { id: 'free', name: 'Free', priceMonthly: 0, priceYearly: 0, currency: 'EUR', highlight: false, features: ['1 panel'], limits: { panels: 1, servers: 1 } },
    { id: 'pro-max', name: 'Pro Max', priceMonthly: 9, priceYearly: null, currency: 'EUR', highlight: true, features: ['All'], limits: { panels: 99, servers: 5 } },
  ]),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(databases())('GET /api/plans on $name', (database) => {
  describe('default catalogue', () => {
    const t = useTestApp(database);

    it('answers config/plans.json, validated, cacheable, readable by the dashboard', async () => {
      const res = await new Browser(t.app).get('/api/plans', { headers: { origin: DASHBOARD_ORIGIN } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD_ORIGIN);
      const plans = PlanCatalogue.parse(res.json());
      expect(plans).toEqual(PlanCatalogue.parse(JSON.parse(readFileSync(join(API_DIR, 'config', 'plans.json'), 'utf8'))));
      // The providers' price ids travel with the plans: checkout needs them (they are public at every provider).
      expect(plans.find((p) => p.id === 'premium')?.providerPrices).toContainEqual({ provider: 'paddle', id: 'pri_premium_monthly', interval: 'month' });
      expect(plans.map((p) => p.id)).toEqual(['free', 'premium']);
    });
  });

  describe('PLANS_FILE', () => {
    const t = useTestApp(database, { env: { PLANS_FILE: customFile } });

    it('answers the configured catalogue', async () => {
      const res = await new Browser(t.app).get('/api/plans');
      expect(res.json().map((p: { id: string }) => p.id)).toEqual(['free', 'pro-max']);
      expect(res.json()[1].priceYearly).toBeNull();
    });
  });
});
