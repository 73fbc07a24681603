import { describe, expect, it } from 'vitest';
import { config, panel } from '../../test/config-fixtures';
import { withoutMultiPanel, withoutPanel } from './config-draft';
import { withMultiPanel, withPanel } from './config-edit';

describe('the Panel Menu keeps what it does not edit', () => {
  it('keeps the ticket labels through every change it saves', () => {
    const labels = [{ id: 'urgent', name: 'Urgent', colour: 0xff0000 }];
    const live = config({ labels });
    const added = withPanel(live, panel('other', 'Other'), null);
    expect(added.labels).toEqual(labels);
    expect(withoutPanel(added, 'other').labels).toEqual(labels);
    const multi = { id: 'desk', name: 'Desk', panelIds: [], mode: 'buttons' as const } as unknown as Parameters<typeof withMultiPanel>[1];
    expect(withoutMultiPanel(withMultiPanel(live, multi, null), 'desk').labels).toEqual(labels);
  });
});
