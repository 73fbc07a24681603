import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Alert, Avatar, Button, buttonClasses, EmptyState, initials, PageHeader, Spinner, TextField, Tooltip } from './index';

afterEach(cleanup);

describe('Button', () => {
  it('is type="button" by default and submits only when asked', () => {
    const onSubmit = vi.fn((e: { preventDefault(): void }) => e.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <Button>Plain</Button>
        <Button type="submit">Send</Button>
      </form>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Plain' }));
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('is disabled and busy while loading', () => {
    const onClick = vi.fn();
    render(
      <Button loading onClick={onClick}>
        Save
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('buttonClasses gives links the variant styles', () => {
    expect(buttonClasses({ variant: 'danger' })).toContain('bg-red-600');
    expect(buttonClasses()).toContain('bg-primary-600');
  });
});

describe('Avatar', () => {
  it('falls back to initials when there is no image or it fails to load', () => {
    const { container, rerender } = render(<Avatar src={null} name="Ava's Arcade" />);
    expect(container.textContent).toBe('AA');
    rerender(<Avatar src="https://cdn.example.com/x.png" name="Ben" />);
    const img = container.querySelector('img')!;
    expect(img).toHaveAttribute('src', 'https://cdn.example.com/x.png');
    fireEvent.error(img);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('BE');
  });

  it('initials takes the first letters of two words, ignoring punctuation', () => {
    expect(initials('Pixel Pals')).toBe('PP');
    expect(initials('  study   hall ')).toBe('SH');
    expect(initials('🎮')).toBe('?');
    expect(initials('x')).toBe('X');
  });
});

describe('TextField', () => {
  it('links the label, hint and error to the input', () => {
    render(<TextField label="Server name" hint="As shown in Discord" error="Required" />);
    const input = screen.getByLabelText('Server name');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('As shown in Discord Required');
  });
});

describe('Tooltip', () => {
  it('shows on focus, describes its trigger, hides on Escape and blur', () => {
    render(
      <Tooltip content="Copy the id">
        <button type="button">Copy</button>
      </Tooltip>,
    );
    const trigger = screen.getByRole('button', { name: 'Copy' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => trigger.focus());
    expect(screen.getByRole('tooltip')).toHaveTextContent('Copy the id');
    expect(trigger).toHaveAccessibleDescription('Copy the id');
    fireEvent.keyDown(trigger, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.mouseEnter(trigger);
    expect(screen.getByRole('tooltip')).toBeInTheDocument();
    fireEvent.mouseLeave(trigger);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});

describe('feedback', () => {
  it('Spinner announces a label unless decorative', () => {
    const { rerender } = render(<Spinner label="Loading servers…" />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading servers…');
    rerender(<Spinner label={null} />);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('danger alerts are alerts, others are status messages', () => {
    const { rerender } = render(<Alert tone="danger" title="Failed" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed');
    rerender(<Alert tone="info" title="Note" />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Note');
  });

  it('PageHeader has one h1 and EmptyState an h2 with its actions', () => {
    render(
      <>
        <PageHeader title="Manage Servers" description="Pick one" />
        <EmptyState title="No servers" description="Invite the bot">
          <a href="/invite">Invite</a>
        </EmptyState>
      </>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Manage Servers');
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('No servers');
    expect(screen.getByRole('link', { name: 'Invite' })).toHaveAttribute('href', '/invite');
  });
});
