/**
 * Every catalogue of every front end is complete: each locale has exactly English's keys, each message
 * is valid ICU with the same placeholders and markup tags as English, and no translation is left
 * equal to a key. A remote's route titles and sidebar labels are in its catalogue, in the same English.
 * A catalogue's parts (a feature's `locales/` under `src/`, whose messages join the front end's) repeat
 * none of its keys.
 */
// @ts-check
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from './catalog.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const sources = ['apps', 'packages'].flatMap((dir) => readdirSync(join(repo, dir)).map((name) => join(repo, dir, name, 'src')));
/** @param {string} dir @returns {string[]} every `locales` folder with an en.json under `dir` */
function localeDirs(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .flatMap((entry) => (entry.name === 'locales' && existsSync(join(dir, entry.name, 'en.json')) ? [join(dir, entry.name)] : localeDirs(join(dir, entry.name))));
}
const catalogues = sources.flatMap(localeDirs);
/** Every locale any catalogue has (each must have them all); English and German at least. */
const LOCALES = [...new Set(['en', 'de', ...catalogues.flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)))])];

/** @param {string} dir @param {string} locale @returns {Record<string, string>} */
function read(dir, locale) {
  return JSON.parse(readFileSync(join(dir, `${locale}.json`), 'utf8'));
}

/**
 * The arguments a message uses ({name}, {count, plural, ...}: the argument names, from the compiled
 * message, so the words inside plural and select options are not taken for arguments) and its markup
 * tags (<link>…</link>).
 * @param {string} message
 */
function shape(message) {
  /** @type {Set<string>} */
  const args = new Set();
  /** @type {string[]} */
  const tags = [];
  // A compiled message is a list of parts: text, or an argument [name, type?, { option: parts }].
  /** @param {unknown[]} parts */
  const walk = (parts) => {
    for (const part of parts) {
      if (typeof part === 'string') {
        for (const m of part.matchAll(/<\/?([a-z][a-z0-9]*)\/?>/g)) tags.push(m[0]);
      } else if (Array.isArray(part) && typeof part[0] === 'string') {
        args.add(`{${part[0]}}`);
        const options = part[2];
        if (options && typeof options === 'object') for (const option of Object.values(options)) if (Array.isArray(option)) walk(option);
      }
    }
  };
  walk(JSON.parse(compileCatalog(JSON.stringify({ m: message }), 'shape')).m);
  return [...args].sort().concat(tags.sort());
}

describe('message catalogues', () => {
  it('finds the catalogues of the shell, every remote and the shared package', () => {
    const names = catalogues.map((dir) => relative(repo, dir).split(/[\\/]/).slice(1, -1).join('/'));
    for (const expected of ['shell', 'marketing', 'billing', 'dashboard', 'staff', 'shared']) expect(names).toContain(`${expected}/src`);
    expect(names).toContain('dashboard/src/features/configs');
  });

  for (const source of sources) {
    const parts = localeDirs(source);
    if (parts.length < 2) continue;
    it(`${relative(repo, source)}: no key is in two of its catalogues (their messages share one namespace)`, () => {
      /** @type {Map<string, string>} */
      const owner = new Map();
      for (const dir of parts) {
        for (const key of Object.keys(read(dir, 'en'))) {
          expect(owner.get(key), `"${key}" of ${relative(repo, dir)}`).toBeUndefined();
          owner.set(key, relative(repo, dir));
        }
      }
    });
  }

  for (const dir of catalogues) {
    const name = relative(repo, dirname(dir));
    const en = read(dir, 'en');
    for (const locale of LOCALES) {
      it(`${name}: ${locale} is complete and well-formed`, () => {
        expect(existsSync(join(dir, `${locale}.json`)), `${name}/locales/${locale}.json`).toBe(true);
        const source = readFileSync(join(dir, `${locale}.json`), 'utf8');
        expect(() => compileCatalog(source, `${name}/${locale}.json`)).not.toThrow();
        const messages = read(dir, locale);
        expect(Object.keys(messages).sort(), `keys of ${name}/${locale}.json`).toEqual(Object.keys(en).sort());
        for (const [key, english] of Object.entries(en)) {
          const message = messages[key] ?? '';
          expect(message.trim(), `${name}/${locale}.json "${key}" is empty`).not.toBe('');
          expect(shape(message), `${name}/${locale}.json "${key}" keeps English's placeholders and tags`).toEqual(shape(english));
        }
      });
    }
  }
});

describe('the catalogue checks themselves', () => {
  it('fail a malformed message with its file and key, and a value that is not text', () => {
    expect(() => compileCatalog('{"hero.title": "Hello {name"}', 'apps/x/src/locales/de.json')).toThrow(/apps\/x\/src\/locales\/de\.json: "hero\.title" is not a valid message/);
    expect(() => compileCatalog('{"a": 1}', 'f.json')).toThrow('"a" is not a string');
    expect(() => compileCatalog('[]', 'f.json')).toThrow('a catalogue is an object');
  });

  it('see a lost placeholder or tag, and not the words inside plural options', () => {
    expect(shape('{count, plural, one {# server} other {# servers}} on <link>{name}</link>')).toEqual(['{count}', '{name}', '</link>', '<link>']);
    expect(shape('{count, plural, one {# Server} other {# Server}} auf <link>{name}</link>')).toEqual(shape('{count, plural, one {# server} other {# servers}} on <link>{name}</link>'));
    expect(shape('Hallo')).not.toEqual(shape('Hello {name}'));
    expect(shape('<b>Hallo</b>')).not.toEqual(shape('<link>Hello</link>'));
  });
});
