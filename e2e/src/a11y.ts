import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core, injected into the page as a script (through the debugger protocol: the page's CSP does not apply). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/**
 * The serious and critical WCAG A/AA violations of the page as it is now, in light and in dark mode
 * (the `.dark` class on <html>, as the theme sets it), one line each. The page is left in the scheme
 * it had.
 */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  if (page.isClosed() || !/^https?:/.test(page.url())) return [];
  const problems: string[] = [];
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  await page.evaluate(AXE_SOURCE);
  // Colours are checked as they settle: no transition or animation half-way between two schemes.
  await page.evaluate(() => {
    const style = document.createElement('style');
    style.id = 'tk-axe-still';
    style.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; }';
    document.head.appendChild(style);
  });
  for (const dark of [false, true]) {
    await page.evaluate((isDark) => {
      document.documentElement.classList.toggle('dark', isDark);
      document.documentElement.style.colorScheme = isDark ? 'dark' : 'light';
    }, dark);
    const violations = (await page.evaluate(
      (tags) => (window as unknown as { axe: { run(ctx: Document, options: unknown): Promise<{ violations: unknown[] }> } }).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }).then((r) => r.violations),
      WCAG_TAGS,
    )) as AxeViolation[];
    for (const v of violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      const where = v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1).join(' ').trim()})` : ''}`)
        .join('; ');
      problems.push(`${dark ? 'dark' : 'light'} ${new URL(page.url()).pathname}: ${v.impact} ${v.id}: ${v.help} at ${where}${v.nodes.length > 3 ? ` (+${v.nodes.length - 3} more)` : ''}`);
    }
  }
  await page.evaluate((isDark) => {
    document.documentElement.classList.toggle('dark', isDark);
    document.documentElement.style.colorScheme = isDark ? 'dark' : 'light';
    document.getElementById('tk-axe-still')?.remove();
  }, wasDark);
  return problems;
}
