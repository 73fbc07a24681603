import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadFailed } from './index';

afterEach(cleanup);

describe('LoadFailed', () => {
  it('says what failed and why, at once (role="alert"), with the caller’s Retry words', () => {
    const onRetry = vi.fn();
    render(<LoadFailed title="The statistics could not be loaded" reason="The server did not answer." retryLabel="Erneut versuchen" onRetry={onRetry} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The statistics could not be loaded');
    expect(alert).toHaveTextContent('The server did not answer.');
    fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('shows the detail on its own line only when there is one', () => {
    const { rerender } = render(<LoadFailed title="Failed" reason="Reason." detail="Unknown Guild" retryLabel="Try again" onRetry={() => {}} className="mb-3" />);
    expect(screen.getByText('Unknown Guild')).toHaveClass('block');
    expect(screen.getByRole('alert')).toHaveClass('mb-3');
    rerender(<LoadFailed title="Failed" reason="Reason." detail={null} retryLabel="Try again" onRetry={() => {}} />);
    expect(screen.queryByText('Unknown Guild')).toBeNull();
  });

  it('says a failed refresh politely (role="status") when what is shown is from before it', () => {
    render(<LoadFailed tone="warning" title="Could not refresh" reason="The server did not answer." retryLabel="Try again" onRetry={() => {}} />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Could not refresh');
  });
});
