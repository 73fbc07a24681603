import { describe, expect, it } from 'vitest';
import { isServerPath, placeholderTarget } from './server-frame';

describe('the server frame', () => {
  it('knows a server’s addresses (its chunk is fetched for them), not Manage Servers or a placeholder', () => {
    expect(isServerPath('/dashboard/1100000000000000001')).toBe(true);
    expect(isServerPath('/dashboard/1100000000000000001/panels')).toBe(true);
    expect(isServerPath('/dashboard')).toBe(false);
    expect(isServerPath('/dashboard/')).toBe(false);
    expect(isServerPath('/dashboard/server-id/statistics')).toBe(false);
    expect(isServerPath('/premium')).toBe(false);
  });

  it('sends a placeholder link to Manage Servers with the page it asked for', () => {
    expect(placeholderTarget('/dashboard/server-id/statistics', '#x')).toBe('/dashboard?page=statistics#x');
  });
});
