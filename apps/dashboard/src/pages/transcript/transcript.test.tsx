import { screen } from '@testing-library/react';
import { changeLocale } from '@tickety/shared';
import { mockApi, renderPage, resetShared } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ARCADE, avaMe } from '../../test/fixtures';
import TranscriptV1 from './v1';
import TranscriptV2 from './v2';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

const V1 = '/transcript/v1/:channel/:attachment/:filename/:ex/:is/:hm';

describe('transcript v1', () => {
  it('shows the file, the ids and the decoded expiry (hex Unix seconds) of an expired link', () => {
    const { unexpected } = mockApi({});
    ({ store } = renderPage(<TranscriptV1 />, {
      url: '/transcript/v1/1200000000000000001/1300000000000000002/transcript-ticket-42.html/6790f0a0/677f0000/0a1b2c3d',
      path: V1,
      me: avaMe(),
    }));
    expect(screen.getByRole('heading', { level: 1, name: 'transcript-ticket-42.html' })).toBeInTheDocument();
    expect(screen.getByText('1200000000000000001')).toBeInTheDocument();
    expect(screen.getByText('1300000000000000002')).toBeInTheDocument();
    const expiry = screen.getByText('Discord link expired').nextElementSibling!;
    expect(expiry.querySelector('time')).toHaveAttribute('datetime', '2025-01-22T13:20:32.000Z');
    expect(expiry).toHaveTextContent('Expired');
    expect(screen.getByText('Link issued').nextElementSibling!.querySelector('time')).toHaveAttribute('datetime', new Date(0x677f0000 * 1000).toISOString());
    expect(screen.getByRole('status')).toHaveTextContent(/The transcript viewer is not available yet/);
    expect(screen.queryByRole('main')).not.toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });

  it('says when a link is still valid, and when ex is not a timestamp', () => {
    mockApi({});
    ({ store } = renderPage(<TranscriptV1 />, { url: '/transcript/v1/1/2/a.html/ffffffff/nothex/x', path: V1, me: avaMe() }));
    const expiry = screen.getByText('Discord link expires').nextElementSibling!;
    expect(expiry.querySelector('time')).toHaveAttribute('datetime', new Date(0xffffffff * 1000).toISOString());
    expect(expiry).not.toHaveTextContent('Expired');
    expect(screen.getByText('Link issued').nextElementSibling).toHaveTextContent('Unknown (not a valid timestamp)');
  });

  it('shows a file name with encoded characters as typed', () => {
    mockApi({});
    ({ store } = renderPage(<TranscriptV1 />, { url: '/transcript/v1/1/2/ticket%20%231.html/ffffffff/ffffffff/x', path: V1, me: avaMe() }));
    expect(screen.getByRole('heading', { level: 1, name: 'ticket #1.html' })).toBeInTheDocument();
  });
});

describe('transcript v2', () => {
  it('shows the server by name and the transcript id, and the honest notice', () => {
    const { unexpected } = mockApi({});
    ({ store } = renderPage(<TranscriptV2 />, { url: `/transcript/v2/${ARCADE.id}/tr_8f2a`, path: '/transcript/v2/:server/:fileid', me: avaMe() }));
    expect(screen.getByRole('heading', { level: 1, name: 'Transcript tr_8f2a' })).toBeInTheDocument();
    expect(screen.getByText(`Ava's Arcade (${ARCADE.id})`)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/arrives in a later version/);
    expect(unexpected).toEqual([]);
  });

  it('shows the server id when the server is not one of the user’s', () => {
    mockApi({});
    ({ store } = renderPage(<TranscriptV2 />, { url: '/transcript/v2/1999/abc', path: '/transcript/v2/:server/:fileid', me: avaMe() }));
    expect(screen.getByText('1999')).toBeInTheDocument();
  });
});

describe('transcripts in German', () => {
  beforeEach(() => changeLocale('de'));
  afterEach(() => changeLocale('en'));

  it('labels a legacy transcript in German, with German dates', () => {
    mockApi({});
    ({ store } = renderPage(<TranscriptV1 />, { url: '/transcript/v1/1/2/a.html/6790f0a0/nothex/x', path: V1, me: avaMe() }));
    expect(screen.getByText('Ticket-Transkript · älteres Format (v1)')).toBeInTheDocument();
    const expiry = screen.getByText('Discord-Link abgelaufen').nextElementSibling!;
    expect(expiry.querySelector('time')).toHaveTextContent(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    expect(expiry).toHaveTextContent('Abgelaufen');
    expect(screen.getByText('Link ausgestellt').nextElementSibling).toHaveTextContent('Unbekannt (kein gültiger Zeitstempel)');
    expect(screen.getByRole('status')).toHaveTextContent(/deren Link abgelaufen ist/);
  });

  it('titles a transcript in German', () => {
    mockApi({});
    ({ store } = renderPage(<TranscriptV2 />, { url: `/transcript/v2/${ARCADE.id}/tr_8f2a`, path: '/transcript/v2/:server/:fileid', me: avaMe() }));
    expect(screen.getByRole('heading', { level: 1, name: 'Transkript tr_8f2a' })).toBeInTheDocument();
    expect(screen.getByText('Transkript-ID')).toBeInTheDocument();
  });
});
