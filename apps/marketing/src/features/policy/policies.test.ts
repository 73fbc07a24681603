import { describe, expect, it } from 'vitest';
import { loadedPolicy, loadPolicy, preloadPolicyAt } from './documents';
import { escapeMarkdown, fillPlaceholders, POLICY_IDS, parseFrontMatter, slugify, tableOfContents } from './policies';

describe('policy helpers', () => {
  it('reads the updated date from the front matter and strips it', () => {
    expect(parseFrontMatter('---\nupdated: 2026-11-22\n---\n\nHello')).toEqual({ updated: '2026-11-22', body: '\nHello' });
    expect(parseFrontMatter('No front matter')).toEqual({ updated: null, body: 'No front matter' });
  });

  it('fills the product name as plain text and URL placeholders as link targets', () => {
    const out = fillPlaceholders('{product} [server]({supportUrl}) {unknown}', { product: 'Best*Bot_', urls: { supportUrl: 'https://discord.gg/a b' } });
    expect(out).toBe('Best\\*Bot\\_ [server](https://discord.gg/a%20b) {unknown}');
    expect(escapeMarkdown('[x](javascript:alert(1))')).toBe('\\[x\\]\\(javascript:alert\\(1\\)\\)');
  });

  it('builds unique ids for h1/h2 headings outside code fences', () => {
    const toc = tableOfContents('# Intro\ntext\n## Your **rights**\n```\n## not a heading\n```\n### Deeper\n## Your rights\n');
    expect(toc).toEqual([
      { id: 'intro', text: 'Intro', line: 1 },
      { id: 'your-rights', text: 'Your rights', line: 3 },
      { id: 'your-rights-1', text: 'Your rights', line: 8 },
    ]);
    expect(slugify('Données & sécurité')).toBe('donnees-securite');
    expect(slugify('Maßnahmen für Übergänge')).toBe('massnahmen-fur-ubergange');
  });
});

describe('policy documents', () => {
  it('loads each document per language, and preloads the one an address opens on', async () => {
    const { default: legalDe } = await import('./content/de/legal.md');
    const { default: legalEn } = await import('./content/legal.md');
    expect(loadedPolicy('legal', 'de')).toBeUndefined();
    await preloadPolicyAt('/legal', 'de');
    expect(loadedPolicy('legal', 'de')?.source).toBe(legalDe);
    expect(loadedPolicy('legal', 'en')).toBeUndefined();
    expect((await loadPolicy('legal', 'en')).source).toBe(legalEn);
    expect(loadedPolicy('legal', 'en')).toBe(loadedPolicy('legal', 'en'));
    await expect(preloadPolicyAt('/premium', 'de')).resolves.toBeUndefined();
    await expect(preloadPolicyAt('/constructor', 'de')).resolves.toBeUndefined();
  });

  it('has a German and an English version of every document', async () => {
    for (const id of POLICY_IDS) {
      const [en, de] = await Promise.all([loadPolicy(id, 'en'), loadPolicy(id, 'de')]);
      expect(parseFrontMatter(de.source).body.trim(), `content/de/${id}.md`).not.toBe('');
      expect(de.source, `content/de/${id}.md`).not.toBe(en.source);
    }
  });
});
