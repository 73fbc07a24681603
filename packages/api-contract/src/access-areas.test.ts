import { describe, expect, it } from 'vitest';
import { accessFromRules, allows, allowsAny, describeAreas, FULL_ACCESS, hasAnyAccess } from './access-areas';
import { ServerAccess } from './server-access';

const GUILD = '1100000000000000007';
const READERS = '1400000000000007002';
const MODDERS = '1400000000000007001';
const WRITERS = '1400000000000007009';

describe('accessFromRules', () => {
  it('gives each area the highest level any of the member\'s roles grants, naming the roles that grant', () => {
    const rules = [
      { roleId: READERS, areas: { panels: 'read', logs: 'read', configs: 'read' } },
      { roleId: WRITERS, areas: { panels: 'write' } },
      { roleId: '1400000000000009999', areas: { premium: 'write' } },
    ] as const;
    expect(accessFromRules(rules, [READERS, MODDERS], GUILD)).toEqual({
      areas: { panels: 'read', tickets: null, statistics: null, logs: 'read', configs: 'read', premium: null },
      grantingRoleIds: [READERS],
    });
    // Write wins over read, whichever rule comes first.
    expect(accessFromRules(rules, [WRITERS, READERS], GUILD).areas.panels).toBe('write');
    expect(accessFromRules([...rules].reverse(), [WRITERS, READERS], GUILD).areas.panels).toBe('write');
    expect(accessFromRules(rules, [MODDERS], GUILD)).toEqual({ areas: { panels: null, tickets: null, statistics: null, logs: null, configs: null, premium: null }, grantingRoleIds: [] });
  });

  it('a rule for @everyone (the server\'s id) applies to every member', () => {
    expect(accessFromRules([{ roleId: GUILD, areas: { statistics: 'read' } }], [], GUILD).areas.statistics).toBe('read');
  });
});

describe('allows', () => {
  it('write includes read; null is nothing', () => {
    const access = { areas: { panels: 'write', tickets: null, statistics: 'read', logs: null, configs: null, premium: null } } as const;
    expect(allows(access, 'panels', 'read')).toBe(true);
    expect(allows(access, 'panels', 'write')).toBe(true);
    expect(allows(access, 'statistics', 'read')).toBe(true);
    expect(allows(access, 'statistics', 'write')).toBe(false);
    expect(allows(access, 'logs', 'read')).toBe(false);
    expect(allowsAny(access, ['logs', 'statistics'], 'read')).toBe(true);
    expect(allowsAny(access, ['logs', 'configs'], 'read')).toBe(false);
    expect(hasAnyAccess(access)).toBe(true);
    expect(hasAnyAccess({ areas: { panels: null, tickets: null, statistics: null, logs: null, configs: null, premium: null } })).toBe(false);
  });

  it('full access writes everywhere and passes the schema', () => {
    expect(ServerAccess.parse(FULL_ACCESS)).toEqual(FULL_ACCESS);
    expect(describeAreas(FULL_ACCESS.areas)).toBe('Panel Menu (write), Tickets (write), Statistics (write), Web Logs (write), Restore Configs (write), Premium (write)');
    expect(describeAreas({})).toBe('nothing');
  });
});
