import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Tag } from '@tickety/api-contract';
import { changeLocale } from '@tickety/shared';
import { apiError, mockApi, renderPage, resetShared, useServedServer } from '@tickety/shared/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { config, live } from '../../../../test/config-fixtures';
import { ARCADE, avaMe } from '../../../../test/fixtures';
import { bodies } from '../../../../test/panel-menu';
import type { LiveConfig } from '../../api';
import { catalog } from './i18n';
import Section from './section';

const SERVER = ARCADE.id;
const BASE = `/api/guilds/${SERVER}`;
const tag = (id: string, name: string, extra: Partial<Tag> = {}): Tag => ({ id, name, content: `The ${name} answer.`, embed: null, keywords: [], ...extra });
const TAGS = [tag('refund', 'refund', { content: 'Refunds take **5 days**.', keywords: ['money'] }), tag('rules', 'rules', { content: '', embed: { title: 'Server rules', description: 'Be kind.', colour: null, imageUrl: null, thumbnailUrl: null, footer: '' } })];

let store: ReturnType<typeof renderPage>['store'] | undefined;
// The frame loads a section's messages with its chunk; here they are loaded up front.
beforeAll(() => catalog.ready('en'));
afterEach(() => {
  resetShared(store);
  void changeLocale('en');
});

function Page({ start, onSaved }: { start: LiveConfig; onSaved(live: LiveConfig): void }) {
  useServedServer(SERVER);
  return <Section server={SERVER} live={start} onSaved={onSaved} onRefetch={async () => start} retryResources={() => undefined} />;
}

function show(start: LiveConfig = live({ config: config({ tags: TAGS }) }), answers: Record<string, unknown> = {}, query = '?tab=tags') {
  const api = mockApi({ [`GET ${BASE}/config`]: start, ...answers });
  const onSaved = vi.fn<(live: LiveConfig) => void>();
  const page = renderPage(<Page start={start} onSaved={onSaved} />, { url: `/dashboard/${SERVER}/configs/automation${query}`, path: '/dashboard/:server/configs/automation', me: avaMe() });
  store = page.store;
  return { ...page, ...api, onSaved };
}

describe('Automation: the Tags tab', () => {
  it('lists the tags with their count against the limit, and searches names and keywords', async () => {
    show();
    const list = await screen.findByRole('list', { name: 'Tags' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByText('2 of 50 tags')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search tags' }), 'money');
    expect(within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText('/refund')).toBeInTheDocument();
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search tags' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search tags' }), 'nothing');
    expect(screen.getByText('No tag matches “nothing”.')).toBeInTheDocument();
  });

  it('says so when there are no tags, and refuses to add past the limit', async () => {
    show(live({ tagLimit: 2, config: config({ tags: [] }) }));
    expect(await screen.findByText('No tags yet')).toBeInTheDocument();
    resetShared(store);
    show(live({ tagLimit: 2, config: config({ tags: TAGS }) }));
    expect(await screen.findByRole('button', { name: 'Add tag' })).toBeDisabled();
    expect(screen.getByText(/This server has its 2 tags/)).toBeInTheDocument();
  });

  it('adds a tag: the schema’s problems at its fields, the live preview, then the whole list saved at the version read', async () => {
    const saved = live({ version: 5, config: config({ tags: [...TAGS, tag('tag-1', 'shipping', { content: 'Ships in **2 days**.' })] }) });
    const { fetchMock, onSaved } = show(undefined, { [`PUT ${BASE}/config`]: saved });
    await userEvent.click(await screen.findByRole('button', { name: 'Add tag' }));
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('new-tag');
    await userEvent.clear(name);
    await userEvent.type(name, 'Shipping');
    await waitFor(() => expect(screen.getByText(/lower-case letters, digits/, { selector: 'li span' })).toBeInTheDocument());
    expect(name).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(name);
    await userEvent.type(name, 'shipping');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    // Neither text nor embed: the schema says so before anything is sent.
    expect(await screen.findByText("Write the tag's text or add an embed.", { selector: 'li span' })).toBeInTheDocument();
    expect(bodies(fetchMock, 'PUT', `${BASE}/config`)).toHaveLength(0);
    await userEvent.type(screen.getByRole('textbox', { name: /^Message/ }), 'Ships in **2 days**.');
    const preview = screen.getByRole('complementary', { name: 'Live preview' });
    expect(within(preview).getByText('2 days')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: /^Keywords/ }), 'post, parcel');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    const [body] = bodies(fetchMock, 'PUT', `${BASE}/config`) as Array<{ expectedVersion: number; config: { tags: Tag[] } }>;
    expect(body!.expectedVersion).toBe(4);
    expect(body!.config.tags.at(-1)).toEqual({ id: 'tag-1', name: 'shipping', content: 'Ships in **2 days**.', embed: null, keywords: ['post', 'parcel'] });
  });

  it('edits a tag with an embed shown in the preview, copies one and deletes one after asking', async () => {
    const { fetchMock } = show(undefined, { [`PUT ${BASE}/config`]: live({ version: 5 }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit rules' }));
    expect(await screen.findByRole('heading', { name: 'Tag /rules' })).toBeInTheDocument();
    expect(within(screen.getByRole('complementary', { name: 'Live preview' })).getByText('Server rules')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Done: back to all tags' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Copy refund' }));
    expect(await screen.findByRole('textbox', { name: /^Name/ })).toHaveValue('refund-copy');
    await userEvent.click(screen.getByRole('button', { name: 'Done: back to all tags' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete rules' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the tag “rules”?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(screen.getAllByText(/^\/(refund|refund-copy)$/)).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bodies(fetchMock, 'PUT', `${BASE}/config`)).toHaveLength(1));
    const [body] = bodies(fetchMock, 'PUT', `${BASE}/config`) as Array<{ config: { tags: Tag[] } }>;
    expect(body!.config.tags.map((item) => item.name)).toEqual(['refund', 'refund-copy']);
  });

  it('shows the server’s refusal of the list (over the plan’s limit) above the list', async () => {
    show(undefined, { [`PUT ${BASE}/config`]: () => apiError(400, 1001, 'tags: This server can have at most 50 tags (this configuration has 51). Remove some, or get premium to raise the limit to 200.') });
    await userEvent.click(await screen.findByRole('button', { name: 'Copy refund' }));
    await userEvent.click(screen.getByRole('button', { name: 'Done: back to all tags' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText(/at most 50 tags/)).not.toHaveLength(0);
  });

  it('says everything in German', async () => {
    await changeLocale('de');
    await catalog.ready('de');
    show();
    expect(await screen.findByText('2 von 50 Tags')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tag hinzufügen' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Tags durchsuchen' })).toBeInTheDocument();
    // The shared schema's problems in German too.
    await userEvent.click(screen.getByRole('button', { name: 'refund bearbeiten' }));
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await userEvent.type(name, 'X');
    expect(await screen.findByText(/^1 bis 32 Kleinbuchstaben/, { selector: 'li span' })).toBeInTheDocument();
  });
});
