import { HealthResponse } from '@tickety/api-contract';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';

describe.each(databases())('GET /api/health on $name', (database) => {
  // A tight per-IP limit: health checks must not be counted against it.
  const t = useTestApp(database, { env: { RATE_LIMIT_MAX: '2' } });

  it('answers liveness without touching dependencies', async () => {
    const res = await new Browser(t.app).get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = HealthResponse.parse(res.json());
    expect(body.status).toBe('ok');
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it('is not rate limited (load balancers poll it)', async () => {
    const browser = new Browser(t.app, { ip: '10.0.0.9' });
    for (let i = 0; i < 10; i++) expect((await browser.get('/api/health')).statusCode).toBe(200);
    // ...while other API routes are.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await browser.get('/api/plans')).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
