import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLocale } from '@tickety/shared';
import { apiError, mockApi, renderPage, resetShared } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { avaMe } from '../../test/fixtures';
import TranscriptV1 from './v1';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

const V1 = '/transcript/v1/:channel/:attachment/:filename/:ex/:is/:hm';
const HM = 'a'.repeat(64);
const PATH = `/transcript/v1/1200000000000000001/1300000000000000002/transcript-ticket-42.html/6790f0a0/677f0000/${HM}`;
const API = `/api/transcripts/v1/1200000000000000001/1300000000000000002/transcript-ticket-42.html/6790f0a0/677f0000/${HM}`;
const html = () => new Response('<!DOCTYPE html><p>hi</p>', { status: 200, headers: { 'content-type': 'text/html' } });

describe('transcript v1', () => {
  it('shows the file and the decoded link times, then the sanitised transcript in a frame that can run nothing', async () => {
    const { unexpected } = mockApi({ [`GET ${API}`]: html });
    ({ store } = renderPage(<TranscriptV1 />, { url: PATH, path: V1, me: avaMe() }));
    expect(screen.getByRole('heading', { level: 1, name: 'transcript-ticket-42.html' })).toBeInTheDocument();
    expect(screen.getByText('1200000000000000001')).toBeInTheDocument();
    const expiry = screen.getByText('Discord link expired').nextElementSibling!;
    expect(expiry.querySelector('time')).toHaveAttribute('datetime', '2025-01-22T13:20:32.000Z');
    expect(expiry).toHaveTextContent('Expired');
    expect(screen.getByText(/has expired, so it was refreshed through the bot/)).toBeInTheDocument();
    const frame = await screen.findByTitle('Legacy transcript transcript-ticket-42.html');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('src')).toMatch(new RegExp(`${API}$`));
    expect(unexpected).toEqual([]);
  });

  it('says why the transcript could not be loaded, with its code, and tries again', async () => {
    let calls = 0;
    mockApi({
      [`GET ${API}`]: () => {
        calls++;
        return calls === 1 ? apiError(404, 1002, 'This transcript is no longer available on Discord: the message or its attachment was deleted.') : html();
      },
    });
    ({ store } = renderPage(<TranscriptV1 />, { url: PATH, path: V1, me: avaMe() }));
    expect(await screen.findByText(/no longer available on Discord/)).toBeInTheDocument();
    expect(screen.getByText('1002 - 404')).toBeInTheDocument();
    expect(screen.queryByTitle(/Legacy transcript/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTitle('Legacy transcript transcript-ticket-42.html')).toBeInTheDocument();
  });

  it('says when ex is not a timestamp, and speaks German', async () => {
    changeLocale('de');
    try {
      mockApi({ [`GET /api/transcripts/v1/1/2/a.html/6790f0a0/nothex/x`]: html });
      ({ store } = renderPage(<TranscriptV1 />, { url: '/transcript/v1/1/2/a.html/6790f0a0/nothex/x', path: V1, me: avaMe() }));
      expect(await screen.findByText('Ticket-Transkript · älteres Format (v1)')).toBeInTheDocument();
      expect(screen.getByText('Link ausgestellt').nextElementSibling).toHaveTextContent('Unbekannt (kein gültiger Zeitstempel)');
      expect(screen.getByText(/abgelaufen ist; er wurde über den Bot erneuert/)).toBeInTheDocument();
      expect(await screen.findByTitle('Älteres Transkript a.html')).toBeInTheDocument();
    } finally {
      changeLocale('en');
    }
  });
});
