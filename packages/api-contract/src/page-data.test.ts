import { describe, expect, it } from 'vitest';
import { PAGE_DATA_ID, pageDataScript, pageHtml, withPageData } from './site-pages';

const STATUS = { status: 'degraded' as const, checkedAt: '2026-11-29T00:00:00.000Z', services: [{ name: 'api', status: 'operational' as const, latencyMs: 0, detail: '</script><script>alert(1)</script> & \u2028' }], shards: [] };

describe('page data in the HTML', () => {
  it('is a JSON script element no text in it can close or break out of', () => {
    const script = pageDataScript({ status: STATUS });
    expect(script.startsWith(`<script type="application/json" id="${PAGE_DATA_ID}">`)).toBe(true);
    const inner = script.slice(script.indexOf('>') + 1, -'</script>'.length);
    expect(inner).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(inner)).toEqual({ status: STATUS });
  });

  it('goes at the end of the body, after #root', () => {
    const page = withPageData('<html><body><div id="root"></div></body></html>', { plans: [] });
    expect(page).toBe(`<html><body><div id="root"></div><script type="application/json" id="${PAGE_DATA_ID}">{"plans":[]}</script></body></html>`);
    const full = pageHtml({
      shell: '<html><head></head><body><div id="root"></div></body></html>',
      composition: { tables: {} } as never,
      path: '/status',
      page: { body: '<p>ok</p>', head: '' },
      origin: 'http://localhost',
      productName: 'Tickety',
      data: { status: STATUS },
    });
    expect(full.indexOf('<div id="root" data-prerendered="/status"><p>ok</p></div>')).toBeLessThan(full.indexOf(PAGE_DATA_ID));
    expect(pageHtml({ shell: '<body><div id="root"></div></body>', composition: { tables: {} } as never, path: '/', page: null, origin: 'http://localhost', productName: 'Tickety' })).not.toContain(PAGE_DATA_ID);
  });
});
