import { describe, expect, it } from 'vitest';
import type { ServerAccess } from '../types';
import { evaluateServerArea, serverAreaOf } from './server-area';

const READER: ServerAccess = { via: 'roles', areas: { panels: 'read', tickets: null, statistics: 'read', logs: null, configs: 'write', premium: null }, grantedBy: ['Readers'] };

describe('evaluateServerArea', () => {
  it('write, read or refused by the area of the page and the access the API answered', () => {
    expect(evaluateServerArea('configs', READER)).toEqual({ level: 'write', area: 'configs' });
    expect(evaluateServerArea('panels', READER)).toEqual({ level: 'read', area: 'panels' });
    expect(evaluateServerArea('logs', READER)).toEqual({ level: 'refused', area: 'logs' });
  });

  it('a page without an area, or access not known yet, is not refused here (the API decides anyway)', () => {
    expect(evaluateServerArea(null, READER)).toEqual({ level: 'write', area: null });
    expect(evaluateServerArea('logs', null)).toEqual({ level: 'write', area: 'logs' });
  });

  it('the innermost matched route with an area names it', () => {
    expect(serverAreaOf([{ requiresAuth: true }, undefined, { area: 'logs' }])).toBe('logs');
    expect(serverAreaOf([{ area: 'panels' }, { page: 'x' }])).toBe('panels');
    expect(serverAreaOf([{ requiresAuth: true }])).toBeNull();
  });
});
