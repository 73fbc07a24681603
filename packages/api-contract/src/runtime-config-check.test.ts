import { describe, expect, it } from 'vitest';
import { RuntimeConfig } from './runtime-config';
import { readRuntimeConfig, runtimeConfigProblem } from './runtime-config-check';

const good = {
  productName: 'Tickety',
  apiOrigin: 'https://tickety.example',
  remotes: {
    marketing: { manifest: '/remotes/marketing/abc/mf-manifest.json', version: 'abc', routes: { schema: 1 } },
    dashboard: { manifest: 'https://cdn.example/dashboard/mf-manifest.json', version: null, routes: [] },
  },
  shell: { version: 'abcdefabcdef' },
  docsUrl: 'https://docs.example',
  supportUrl: 'https://support.example',
  inviteUrl: 'https://invite.example',
  discordClientId: '123',
  discordOrigin: 'https://discord.com',
  paddleToken: null,
  paddleScriptUrl: null,
  analyticsToken: 'token',
  analyticsScriptUrl: 'https://cdn.example/profitwell.js',
  demo: false,
};

const VALUES: unknown[] = [undefined, null, '', 'x', 0, true, {}, [], { version: 'v' }, { manifest: 'm', version: null }];
const REMOTES: unknown[] = [
  {},
  { staff: '' },
  { staff: { manifest: '' } },
  { staff: { manifest: 'm' } },
  { staff: { manifest: 'm', version: 3 } },
  { staff: { manifest: 'm', version: 'v', routes: 'anything', extra: 1 } },
  { staff: undefined },
  { billing: { manifest: 'm', version: null } },
  { billing: { manifest: 'm', version: null, routes: undefined } },
  { nobody: { manifest: 'm', version: null } },
  { billing: { manifest: 'm', version: null }, nobody: 1 },
  [],
];

/** A config with one field changed (or dropped, as `undefined`). */
function variants(): unknown[] {
  const out: unknown[] = [good, { ...good, unknownField: 1 }, 'x', null, [], 5];
  for (const name of Object.keys(good)) {
    for (const value of [...VALUES, ...(name === 'remotes' ? REMOTES : [])]) {
      const changed: Record<string, unknown> = { ...good, [name]: value };
      if (value === undefined) delete changed[name];
      out.push(changed);
    }
  }
  return out;
}

describe("the shell's config.json check", () => {
  it('accepts and refuses exactly what the RuntimeConfig schema does, naming the same first field', () => {
    let refused = 0;
    for (const value of variants()) {
      const schema = RuntimeConfig.safeParse(value);
      const problem = runtimeConfigProblem(value);
      expect(problem === null, `${JSON.stringify(value)}: ${problem}`).toBe(schema.success);
      if (schema.success) {
        expect(readRuntimeConfig(value as Record<string, unknown>)).toEqual(schema.data);
        continue;
      }
      refused++;
      const path = schema.error.issues[0]?.path ?? [];
      expect(problem, JSON.stringify(value)).toContain(path.length ? `"${path.join('.')}"` : 'the file');
    }
    expect(refused).toBeGreaterThan(100);
  });

  it('says what is wrong in one line', () => {
    expect(runtimeConfigProblem({ ...good, productName: '' })).toBe('config.json: "productName" must be a non-empty string.');
    expect(runtimeConfigProblem({ ...good, remotes: { staff: { manifest: '' } } })).toBe('config.json: "remotes.staff.manifest" must be the URL of its mf-manifest.json.');
    expect(runtimeConfigProblem('x')).toBe('config.json: the file must be an object.');
  });
});
