import { TEST_CONFIG } from '@tickety/shared/testing';
import { describe, expect, it } from 'vitest';
import { renderPage } from './prerender';

describe('prerendered pages (dist/prerender.mjs, rendered by the server)', () => {
  it.each([
    ['/', 'public', /<h1[^>]*>[\s\S]*Support tickets/],
    ['/premium', 'public', /<h1[^>]*>/],
    ['/privacy-policy', 'public', /<h1[^>]*>/],
    ['/support', 'public', /<h1[^>]*>/],
    ['/home-display', 'display', /<h1[^>]*>/],
  ])('renders %s in the %s layout, signed out', (path, layout, heading) => {
    const page = renderPage(path, TEST_CONFIG);
    expect(page?.layout).toBe(layout);
    expect(page?.html).toMatch(heading);
    expect(page?.html).not.toContain('data-tk-page');
  });

  it('renders nothing it does not own, and no address with a parameter', () => {
    expect(renderPage('/nope', TEST_CONFIG)).toBeNull();
    expect(renderPage('/dashboard', TEST_CONFIG)).toBeNull();
  });
});
