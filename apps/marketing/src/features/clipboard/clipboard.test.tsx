import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderPage } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ClipboardPage from './clipboard';

const writeText = vi.fn<(text: string) => Promise<void>>();
const original = Object.getOwnPropertyDescriptor(window.navigator, 'clipboard');

beforeEach(() => {
  writeText.mockReset();
  Object.defineProperty(window.navigator, 'clipboard', { configurable: true, value: { writeText } });
});
afterEach(() => {
  if (original) Object.defineProperty(window.navigator, 'clipboard', original);
  Reflect.deleteProperty(document, 'execCommand');
});

describe('ClipboardPage', () => {
  it('copies the text on load and says so', async () => {
    writeText.mockResolvedValue(undefined);
    renderPage(<ClipboardPage />, { url: '/clipboard?text=1100000000000000001' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Copied to your clipboard' })).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('1100000000000000001');
    expect(screen.getByLabelText('Text to copy')).toHaveValue('1100000000000000001');
  });

  it('falls back to a selected read-only field when the browser refuses, and copies again on click', async () => {
    writeText.mockRejectedValueOnce(new DOMException('Document is not focused.', 'NotAllowedError'));
    Object.defineProperty(document, 'execCommand', { configurable: true, value: vi.fn(() => false) });
    renderPage(<ClipboardPage />, { url: '/clipboard?text=hello%20world' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Copy it by hand' })).toBeInTheDocument();
    const field = screen.getByLabelText<HTMLInputElement>('Text to copy');
    expect(field).toHaveAttribute('readonly');
    expect(field).toHaveValue('hello world');
    expect(field).toHaveFocus();
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, 'hello world'.length]);
    expect(screen.getByText(/press (Ctrl|⌘ Cmd) \+ C/)).toBeInTheDocument();

    writeText.mockResolvedValueOnce(undefined);
    fireEvent.click(screen.getByRole('button', { name: /copy again/i }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Copied to your clipboard' })).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledTimes(2);
  });

  it('uses the selection command when the Clipboard API is missing', async () => {
    Object.defineProperty(window.navigator, 'clipboard', { configurable: true, value: undefined });
    const execCommand = vi.fn(() => true);
    Object.defineProperty(document, 'execCommand', { configurable: true, value: execCommand });
    renderPage(<ClipboardPage />, { url: '/clipboard?text=abc' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Copied to your clipboard' })).toBeInTheDocument();
    expect(execCommand).toHaveBeenCalledWith('copy');
  });

  it.each(['/clipboard', '/clipboard?text=', '/clipboard?text=%20%20'])('explains there is nothing to copy at %s', async (url) => {
    renderPage(<ClipboardPage />, { url });
    expect(screen.getByRole('heading', { level: 1, name: 'Nothing to copy' })).toBeInTheDocument();
    await waitFor(() => expect(writeText).not.toHaveBeenCalled());
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows long text in a multi-line field', async () => {
    writeText.mockResolvedValue(undefined);
    const text = 'line one\nline two';
    renderPage(<ClipboardPage />, { url: `/clipboard?text=${encodeURIComponent(text)}` });
    await screen.findByRole('heading', { level: 1, name: 'Copied to your clipboard' });
    expect(screen.getByLabelText('Text to copy').tagName).toBe('TEXTAREA');
    expect(writeText).toHaveBeenCalledWith(text);
  });
});
