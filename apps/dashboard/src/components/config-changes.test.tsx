import { screen, within } from '@testing-library/react';
import { renderPage, resetShared } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '../test/config-fixtures';
import { ConfigChanges } from './config-changes';

afterEach(() => resetShared());

describe('ConfigChanges', () => {
  it('renders a diff against a configuration, naming panels by their names', () => {
    renderPage(
      <ConfigChanges
        changes={[
          { path: 'panels[support].embed.description', before: 'Line one\nLine two', after: 'Shorter' },
          { path: 'panels[support].form[q1]', before: config().panels[0]!.form[0] },
        ]}
        config={config()}
      />,
    );
    const rows = within(screen.getByRole('list', { name: 'Changes' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Panel “Support”›, Message›, Description');
    expect(rows[1]).toHaveTextContent('Question “What happened?”');
    expect(within(rows[1]!).getByText('Removed')).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('After')).not.toBeInTheDocument();
  });

  it('says when nothing changed', () => {
    renderPage(<ConfigChanges changes={[]} />);
    expect(screen.getByText('No configuration field changed.')).toBeInTheDocument();
  });
});
