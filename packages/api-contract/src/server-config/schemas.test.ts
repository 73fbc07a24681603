import { describe, expect, it } from 'vitest';
import { PlanCatalogue } from '../runtime';
import { buildMultiPanelMessage, buildPanelMessage, validateMessagePayload } from './message';
import { AccessRule, defaultServerConfig, FREE_PANEL_LIMIT, GeneralSettings, serverConfigSchema } from './schemas';
import { issuesOf, minimalPanel, ROLE_MODS, realisticConfig, withValue } from './test-fixtures';

const premium = serverConfigSchema({ panelLimit: 50, premium: true });
const free = serverConfigSchema({ panelLimit: FREE_PANEL_LIMIT, premium: false, premiumPanelLimit: 50 });
const panels = (n: number) => Array.from({ length: n }, (_, i) => minimalPanel(`p${i + 1}`));

describe('a realistic server configuration', () => {
  it('passes as it is, and parses to itself', () => {
    const config = realisticConfig();
    expect(issuesOf(premium, config)).toEqual([]);
    expect(premium.parse(config)).toEqual(config);
  });

  it('posts messages that keep every Discord message limit', () => {
    const config = realisticConfig();
    for (const panel of config.panels) expect(validateMessagePayload(buildPanelMessage(panel)), panel.id).toEqual([]);
    for (const multi of config.multiPanels) {
      expect(validateMessagePayload(buildMultiPanelMessage(multi, config.panels)), multi.id).toEqual([]);
    }
  });

  it('the default configuration passes on a free server', () => {
    expect(issuesOf(free, defaultServerConfig())).toEqual([]);
  });

  it('refuses another schema version', () => {
    expect(issuesOf(premium, { ...realisticConfig(), schemaVersion: 2 })).toEqual([
      { path: 'schemaVersion', code: 'invalid_value', message: 'This configuration is of another format (expected schemaVersion 1).' },
    ]);
  });
});

describe('general settings', () => {
  const general = () => realisticConfig().general;

  it('checks channel ids, the naming scheme, the per-user limit and the language', () => {
    expect(issuesOf(GeneralSettings, { ...general(), transcriptChannelId: null, defaultCategoryId: null, logChannelId: null })).toEqual([]);
    expect(
      issuesOf(GeneralSettings, {
        ...general(),
        logChannelId: '#logs',
        ticketNameScheme: 'ticket-{number}',
        maxOpenTicketsPerUser: 11,
        language: 'fr',
      }),
    ).toEqual([
      { path: 'logChannelId', code: 'invalid_format', message: 'must be a Discord id (17 to 20 digits)' },
      { path: 'ticketNameScheme', code: 'custom', message: 'Unknown variable {number}: use {count}, {username} or {userid}.' },
      { path: 'maxOpenTicketsPerUser', code: 'too_big', message: 'The limit per user can be at most 10.' },
      { path: 'language', code: 'invalid_value', message: 'Must be one of en, de.' },
    ]);
  });
});

describe('access rules', () => {
  it('give a role read or write per area', () => {
    expect(issuesOf(AccessRule, { roleId: ROLE_MODS, areas: { panels: 'write', statistics: 'read', logs: 'read', configs: 'read', premium: 'write' } })).toEqual([]);
    expect(issuesOf(AccessRule, { roleId: ROLE_MODS, areas: { panels: 'admin' } })).toEqual([
      { path: 'areas.panels', code: 'invalid_value', message: 'Must be read or write.' },
    ]);
    expect(issuesOf(AccessRule, { roleId: ROLE_MODS, areas: { automation: 'read', panels: 'read' } })).toEqual([
      { path: 'areas', code: 'unrecognized_keys', message: 'Unknown area "automation": the areas are panels, tickets, statistics, logs, configs, premium.' },
    ]);
  });

  it('need at least one area', () => {
    expect(issuesOf(premium, withValue(realisticConfig(), 'access.1.areas', {}))).toEqual([
      { path: 'access.1.areas', code: 'custom', message: 'Give this role access to at least one area, or remove the rule.' },
    ]);
  });

  it('hold one rule per role', () => {
    expect(issuesOf(premium, withValue(realisticConfig(), 'access.1.roleId', ROLE_MODS))).toEqual([
      { path: 'access.1.roleId', code: 'custom', message: 'This role already has a rule: change that one instead.' },
    ]);
  });
});

describe('panel limit', () => {
  const config = (n: number) => ({ ...defaultServerConfig(), panels: panels(n) });

  it('lets a free server have 3 panels, not 4, and says premium raises the limit', () => {
    expect(issuesOf(free, config(3))).toEqual([]);
    expect(issuesOf(free, config(4))).toEqual([
      {
        path: 'panels',
        code: 'too_big',
        message: 'This server can have at most 3 panels (this configuration has 4). Remove a panel, or get premium to raise the limit to 50.',
      },
    ]);
  });

  it('takes the limit from the plan catalogue for premium servers', () => {
    const catalogue = PlanCatalogue.parse([
      { id: 'free', name: 'Free', priceMonthly: 0, priceYearly: 0, currency: 'USD', highlight: false, features: [], limits: { panels: 3, servers: 1 } },
      { id: 'premium', name: 'Premium', priceMonthly: 5, priceYearly: 50, currency: 'USD', highlight: true, features: [], limits: { panels: 50, servers: 1 } },
    ]);
    const plan = catalogue.find((p) => p.id === 'premium')!;
    const schema = serverConfigSchema({ panelLimit: plan.limits.panels, premium: true });
    expect(issuesOf(schema, config(50))).toEqual([]);
    expect(issuesOf(schema, config(51))).toEqual([
      { path: 'panels', code: 'too_big', message: 'This server can have at most 50 panels (this configuration has 51). Remove a panel to save.' },
    ]);
  });

  it('mentions premium without a number when the premium limit is not given', () => {
    expect(issuesOf(serverConfigSchema({ panelLimit: 3 }), config(4))).toEqual([
      {
        path: 'panels',
        code: 'too_big',
        message: 'This server can have at most 3 panels (this configuration has 4). Remove a panel, or get premium to raise the limit.',
      },
    ]);
  });

  it('lets a server over its limit (premium ended) keep, edit and remove its panels, never add one', () => {
    const downgraded = serverConfigSchema({ panelLimit: 3, premium: false, savedPanels: 5 });
    expect(issuesOf(downgraded, config(5))).toEqual([]);
    expect(issuesOf(downgraded, config(4))).toEqual([]);
    expect(issuesOf(downgraded, config(6))).toEqual([
      {
        path: 'panels',
        code: 'too_big',
        message:
          'This server can have at most 3 panels (this configuration has 6). It already had 5: you can edit or remove those, but not add more. Remove a panel, or get premium to raise the limit.',
      },
    ]);
    // Within the limit the saved count changes nothing.
    expect(issuesOf(serverConfigSchema({ panelLimit: 3, savedPanels: 2 }), config(4))).toHaveLength(1);
  });

  it('reads a stored version without the limit when given Infinity', () => {
    expect(issuesOf(serverConfigSchema({ panelLimit: Number.POSITIVE_INFINITY }), config(60))).toEqual([]);
  });
});

describe('premium features', () => {
  it('refuses support hours on a free server, at the panel', () => {
    const config = { ...realisticConfig(), panels: realisticConfig().panels.slice(0, 3) };
    expect(issuesOf(free, config)).toEqual([
      { path: 'panels.0.supportHours', code: 'custom', message: 'Support hours are a premium feature: turn them off, or give this server premium.' },
    ]);
    expect(issuesOf(free, withValue(config, 'panels.0.supportHours', null))).toEqual([]);
  });

  it('does not check premium features when the schema is not told', () => {
    expect(issuesOf(serverConfigSchema({ panelLimit: 3 }), realisticConfig())).toEqual([]);
  });
});

describe('ids and references', () => {
  it('needs each panel id once, naming the panel that has it', () => {
    expect(issuesOf(premium, withValue(realisticConfig(), 'panels.2.id', 'billing'))).toEqual([
      {
        path: 'panels.2.id',
        code: 'custom',
        message: 'The panel "Billing & premium" already has the id "billing": each panel and multi-panel needs its own.',
      },
      // The multi-panels offering 'report' now point at nothing.
      {
        path: 'multiPanels.0.panelIds.2',
        code: 'custom',
        message: 'There is no panel with the id "report" (it may have been deleted): remove it from this multi-panel.',
      },
      {
        path: 'multiPanels.1.panelIds.0',
        code: 'custom',
        message: 'There is no panel with the id "report" (it may have been deleted): remove it from this multi-panel.',
      },
    ]);
  });

  it('keeps multi-panel ids apart from each other and from panel ids', () => {
    expect(issuesOf(premium, withValue(realisticConfig(), 'multiPanels.1.id', 'all'))).toEqual([
      { path: 'multiPanels.1.id', code: 'custom', message: 'The multi-panel "Everything" already has the id "all": each panel and multi-panel needs its own.' },
    ]);
    expect(issuesOf(premium, withValue(realisticConfig(), 'multiPanels.0.id', 'billing'))).toEqual([
      { path: 'multiPanels.0.id', code: 'custom', message: 'The panel "Billing & premium" already has the id "billing": each panel and multi-panel needs its own.' },
    ]);
  });

  it('refuses a multi-panel offering a panel that does not exist', () => {
    expect(issuesOf(premium, withValue(realisticConfig(), 'multiPanels.1.panelIds', ['report', 'gone']))).toEqual([
      {
        path: 'multiPanels.1.panelIds.1',
        code: 'custom',
        message: 'There is no panel with the id "gone" (it may have been deleted): remove it from this multi-panel.',
      },
    ]);
  });

  it('checks id syntax (custom-id safe, at most 32)', () => {
    const renamed = withValue(withValue(realisticConfig(), 'panels.2.id', 'a'.repeat(32)), 'multiPanels.1.panelIds', ['a'.repeat(32)]);
    expect(issuesOf(premium, withValue(renamed, 'multiPanels.0.panelIds.2', 'a'.repeat(32)))).toEqual([]);
    expect(issuesOf(premium, withValue(realisticConfig(), 'multiPanels.0.id', 'a:b'))).toEqual([
      { path: 'multiPanels.0.id', code: 'invalid_format', message: "Must be 1 to 32 letters, digits, '-' or '_'." },
    ]);
    expect(issuesOf(premium, withValue(realisticConfig(), 'multiPanels.0.id', 'a'.repeat(33)))).toEqual([
      { path: 'multiPanels.0.id', code: 'invalid_format', message: "Must be 1 to 32 letters, digits, '-' or '_'." },
    ]);
  });
});

describe('several problems at once', () => {
  it('reports field and cross-field problems together, each at its field', () => {
    let config = realisticConfig();
    config = withValue(config, 'panels.0.button.label', 'x'.repeat(81));
    config = withValue(config, 'panels.1.form.0.minLength', 65);
    config = withValue(config, 'multiPanels.0.panelIds.0', 'missing');
    expect(issuesOf(premium, config).map((i) => i.path)).toEqual(['panels.0.button.label', 'panels.1.form.0.minLength', 'multiPanels.0.panelIds.0']);
  });
});
