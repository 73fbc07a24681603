import { describe, expect, it } from 'vitest';
import { diffConfig } from './config-diff';

describe('diffConfig', () => {
  it('names changed, added and removed fields by path', () => {
    expect(diffConfig({ a: 1, b: { c: 'x', d: true } }, { a: 1, b: { c: 'y' }, e: [1] })).toEqual([
      { path: 'b.c', before: 'x', after: 'y' },
      { path: 'b.d', before: true },
      { path: 'e', after: [1] },
    ]);
    expect(diffConfig({ a: 1 }, { a: 1 })).toEqual([]);
  });

  it('matches list items by id: an edit is a field change, a reorder is one change, not every item', () => {
    const panelA = { id: 'a', name: 'A' };
    const panelB = { id: 'b', name: 'B' };
    expect(diffConfig({ panels: [panelA, panelB] }, { panels: [panelB, { ...panelA, name: 'Alpha' }] })).toEqual([
      { path: 'panels[a].name', before: 'A', after: 'Alpha' },
      { path: 'panels.order', before: ['a', 'b'], after: ['b', 'a'] },
    ]);
    expect(diffConfig({ panels: [panelA] }, { panels: [panelB] })).toEqual([
      { path: 'panels[a]', before: panelA },
      { path: 'panels[b]', after: panelB },
    ]);
  });

  it('compares lists without ids whole', () => {
    expect(diffConfig({ roles: ['1', '2'] }, { roles: ['2'] })).toEqual([{ path: 'roles', before: ['1', '2'], after: ['2'] }]);
  });

  it('sees no change when only the order of an object’s keys differs (as the database gives them back)', () => {
    const saved = { access: [{ roleId: '1', areas: { panels: 'read', logs: 'write' } }], hours: [{ from: '09:00', to: '17:00' }] };
    const stored = { hours: [{ to: '17:00', from: '09:00' }], access: [{ areas: { logs: 'write', panels: 'read' }, roleId: '1' }] };
    expect(diffConfig(saved, stored)).toEqual([]);
    expect(diffConfig(saved, { ...stored, hours: [{ to: '18:00', from: '09:00' }] })).toEqual([{ path: 'hours', before: saved.hours, after: [{ to: '18:00', from: '09:00' }] }]);
  });

  it('describes ticket labels by id: added, renamed, recoloured, removed, reordered', () => {
    const urgent = { id: 'urgent', name: 'Urgent', colour: 0xff0000 };
    const billing = { id: 'billing', name: 'Billing', colour: 0x00ff00 };
    const vip = { id: 'vip', name: 'VIP', colour: 0x0000ff };
    expect(diffConfig({ labels: [urgent, billing] }, { labels: [{ ...billing, name: 'Money' }, { ...urgent, colour: 0 }, vip] })).toEqual([
      { path: 'labels[billing].name', before: 'Billing', after: 'Money' },
      { path: 'labels[urgent].colour', before: 0xff0000, after: 0 },
      { path: 'labels[vip]', after: vip },
      { path: 'labels.order', before: ['urgent', 'billing'], after: ['billing', 'urgent'] },
    ]);
    expect(diffConfig({ labels: [urgent] }, { labels: [] })).toEqual([{ path: 'labels[urgent]', before: urgent }]);
  });
});
