import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './index';

afterEach(cleanup);

function Opener({ onConfirm = () => {}, confirmLabel = 'Delete' as string | null }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <ConfirmDialog open={open} title="Delete Support?" confirmLabel={confirmLabel} cancelLabel="Keep it" onConfirm={onConfirm} onCancel={() => setOpen(false)}>
        The panel is removed from the configuration.
      </ConfirmDialog>
    </>
  );
}

describe('ConfirmDialog', () => {
  it('renders nothing while closed', () => {
    render(<ConfirmDialog open={false} title="Delete?" confirmLabel="Delete" cancelLabel="Cancel" onConfirm={() => {}} onCancel={() => {}} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is named by its title, described by its text, and focuses the safe answer first', () => {
    render(<Opener />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Support?' });
    expect(dialog).toHaveAccessibleDescription('The panel is removed from the configuration.');
    expect(screen.getByRole('button', { name: 'Keep it' })).toHaveFocus();
  });

  it('confirms, cancels, and gives focus back to the opener', () => {
    const onConfirm = vi.fn();
    render(<Opener onConfirm={onConfirm} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
  });

  it('offers only the cancel answer without a confirm label', () => {
    render(<Opener confirmLabel={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('button', { name: 'Keep it' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('keeps both answers from being pressed twice while busy', () => {
    const onCancel = vi.fn();
    render(<ConfirmDialog open busy title="Delete?" confirmLabel="Delete" cancelLabel="Cancel" onConfirm={() => {}} onCancel={onCancel} />);
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveAttribute('aria-busy', 'true');
  });

  it('as an alertdialog, shows a preview apart from its description and a failure inside the dialog', () => {
    render(
      <ConfirmDialog open alert title="Replay?" extra={<p>Event evt_1</p>} failure={{ title: 'The replay failed', reason: 'The server did not answer.' }} confirmLabel="Try again" cancelLabel="Cancel" onConfirm={() => {}} onCancel={() => {}}>
        The event is delivered again.
      </ConfirmDialog>,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Replay?' });
    expect(dialog).toHaveAccessibleDescription('The event is delivered again.');
    expect(dialog).toHaveTextContent('Event evt_1');
    expect(screen.getByRole('alert')).toHaveTextContent('The replay failed');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  });
});

