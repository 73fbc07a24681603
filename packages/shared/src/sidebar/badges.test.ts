import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSidebarBadges, getSidebarBadge, setSidebarBadge, useSidebarBadge } from './badges';

afterEach(() => clearSidebarBadges());

describe('sidebar badges', () => {
  it('keeps one badge per server and entry, and null removes it', () => {
    setSidebarBadge('1', 'tickets', { count: 3, label: '3 waiting' });
    setSidebarBadge('2', 'tickets', { count: 1, label: '1 waiting' });
    expect(getSidebarBadge('1', 'tickets')).toEqual({ count: 3, label: '3 waiting' });
    expect(getSidebarBadge('1', 'configs')).toBeNull();
    setSidebarBadge('1', 'tickets', null);
    expect(getSidebarBadge('1', 'tickets')).toBeNull();
    expect(getSidebarBadge('2', 'tickets')).toEqual({ count: 1, label: '1 waiting' });
  });

  it('re-renders a reader when its badge changes, and not for the same badge again', () => {
    let renders = 0;
    const { result } = renderHook(() => {
      renders++;
      return useSidebarBadge('1', 'tickets');
    });
    expect(result.current).toBeNull();
    act(() => setSidebarBadge('1', 'tickets', { count: 2, label: '2 waiting' }));
    expect(result.current).toEqual({ count: 2, label: '2 waiting' });
    const before = renders;
    act(() => setSidebarBadge('1', 'tickets', { count: 2, label: '2 waiting' }));
    act(() => setSidebarBadge('2', 'tickets', { count: 9, label: '9 waiting' }));
    expect(renders).toBe(before);
    act(() => setSidebarBadge('1', 'tickets', null));
    expect(result.current).toBeNull();
  });
});
