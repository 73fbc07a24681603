import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Tag } from '@tickety/api-contract';
import { changeLocale } from '@tickety/shared';
import { apiError, json, mockApi, renderPage, resetShared } from '@tickety/shared/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ARCADE, avaMe } from '../../test/fixtures';
import { ReplyBox, type ReplyDraft } from './reply-box';

const SERVER = ARCADE.id;
const TAGS_URL = `/api/guilds/${SERVER}/tickets/tags`;
const tag = (id: string, name: string, extra: Partial<Tag> = {}): Tag => ({ id, name, content: `The ${name} answer.`, embed: null, keywords: [], ...extra });
const TAGS: Tag[] = [
  tag('refund', 'refund', { content: 'Refunds take **5 days**.', keywords: ['money'] }),
  tag('rules', 'rules', { content: '', embed: { title: 'Server rules', description: 'Be kind.', colour: 0x10b981, imageUrl: null, thumbnailUrl: null, footer: '' } }),
  tag('reset', 'password-reset', { keywords: ['login'] }),
];

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  resetShared(store);
  void changeLocale('en');
});

function show(tagsAnswer: unknown = { tags: TAGS }) {
  const api = mockApi({ [`GET ${TAGS_URL}`]: tagsAnswer });
  const onSend = vi.fn<(draft: ReplyDraft) => void>();
  const page = renderPage(<ReplyBox server={SERVER} ticket="t12" dark={false} restore={null} onSend={onSend} />, { url: `/dashboard/${SERVER}/tickets/t12`, path: '/dashboard/:server/tickets/:ticket', me: avaMe() });
  store = page.store;
  return { ...api, onSend };
}

describe('the reply box: tags with /', () => {
  it('opens the list on / at the start, searches names and keywords, chooses with the arrows and Enter', async () => {
    const { onSend, calls } = show();
    const box = await screen.findByRole('textbox', { name: 'Reply' });
    expect(calls(TAGS_URL)).toHaveLength(0);
    await userEvent.type(box, '/');
    const combo = screen.getByRole('combobox', { name: 'Reply' });
    expect(combo).toHaveAttribute('aria-expanded', 'true');
    const list = await screen.findByRole('listbox', { name: 'Tags' });
    expect(within(list).getAllByRole('option').map((option) => option.textContent)).toEqual([
      expect.stringContaining('/password-reset'),
      expect.stringContaining('/refund'),
      expect.stringContaining('/rules'),
    ]);
    await userEvent.type(combo, 'mon');
    expect(within(list).getAllByRole('option')).toHaveLength(1);
    expect(within(list).getByRole('option', { name: /refund/ })).toHaveAttribute('aria-selected', 'true');
    await userEvent.clear(combo);
    await userEvent.type(combo, '/r');
    // refund, rules (names starting with r), then password-reset (containing r).
    expect(combo).toHaveAttribute('aria-activedescendant', expect.stringContaining('refund'));
    await userEvent.keyboard('{ArrowDown}');
    expect(within(screen.getByRole('listbox', { name: 'Tags' })).getByRole('option', { name: /rules/ })).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowUp}{Enter}');
    const filled = screen.getByRole('textbox', { name: 'Reply' });
    expect(filled).toHaveValue('Refunds take **5 days**.');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByText('Tag: refund')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(onSend).toHaveBeenCalledWith({ content: 'Refunds take **5 days**.', attachmentIds: [], tagId: 'refund' });
  });

  it('sends a tag of an embed alone with empty text, showing its embed in the preview', async () => {
    const { onSend } = show();
    const box = await screen.findByRole('textbox', { name: 'Reply' });
    await userEvent.type(box, '/rul');
    await userEvent.click(await screen.findByRole('option', { name: /rules/ }));
    expect(screen.getByText('Its embed is sent with the reply.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(screen.getByText('Server rules')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(onSend).toHaveBeenCalledWith({ content: '', attachmentIds: [], tagId: 'rules' });
  });

  it('closes with Escape (the text stays), and says when nothing matches or there are no tags', async () => {
    show();
    const box = await screen.findByRole('textbox', { name: 'Reply' });
    await userEvent.type(box, '/zzz');
    expect(await screen.findByText('No tag matches. Escape closes the list.')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Reply' })).toHaveValue('/zzz');
    // Without a tag, a reply starting with / is sent as written.
    expect(screen.getByRole('button', { name: 'Send reply' })).toBeEnabled();
  });

  it('says the server has no tags', async () => {
    show({ tags: [] });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Reply' }), '/');
    expect(await screen.findByText(/This server has no tags yet/)).toBeInTheDocument();
  });

  it('shows a failed read of the tags with Retry, which reads again', async () => {
    let answers = 0;
    show(() => (++answers === 1 ? apiError(500, 1000, 'Database down') : json({ tags: TAGS })));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Reply' }), '/');
    expect(await screen.findByText(/The tags could not be loaded/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
  });

  it('says it in German', async () => {
    await changeLocale('de');
    show();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Antwort' }), '/zzz');
    expect(await screen.findByText('Kein Tag passt. Escape schließt die Liste.')).toBeInTheDocument();
  });
});
