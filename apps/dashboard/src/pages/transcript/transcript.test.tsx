import { screen } from '@testing-library/react';
import { changeLocale } from '@tickety/shared';
import { mockApi, renderPage, resetShared } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ARCADE, avaMe } from '../../test/fixtures';
import TranscriptV2 from './v2';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

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

  it('titles a transcript in German', () => {
    mockApi({});
    ({ store } = renderPage(<TranscriptV2 />, { url: `/transcript/v2/${ARCADE.id}/tr_8f2a`, path: '/transcript/v2/:server/:fileid', me: avaMe() }));
    expect(screen.getByRole('heading', { level: 1, name: 'Transkript tr_8f2a' })).toBeInTheDocument();
    expect(screen.getByText('Transkript-ID')).toBeInTheDocument();
  });
});
