import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FEEDBACK_BOT_TEXT, type ServerAccess } from '@tickety/api-contract';
import { changeLocale } from '@tickety/shared';
import { apiError, type ApiAnswer, json, mockApi, renderPage, resetShared, useServedServer } from '@tickety/shared/testing';
import { Suspense, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { config, live, panel } from '../../../../test/config-fixtures';
import { ARCADE, avaMe } from '../../../../test/fixtures';
import { showAutomation } from '../../../../test/automation';
import { bodies } from '../../../../test/panel-menu';
import type { LiveConfig } from '../../api';
import { catalog } from './i18n';
import FeedbackSection from './section';

const SERVER = ARCADE.id;
const BASE = `/api/guilds/${SERVER}`;

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(async () => {
  resetShared(store);
  await changeLocale('en');
});

const PANELS = [panel('support', 'Support'), panel('billing', 'Billing', { feedback: true }), panel('bugs', 'Bug reports', { feedback: false })];

function Page({ start, access, onSaved }: { start: LiveConfig; access?: ServerAccess; onSaved(live: LiveConfig): void }) {
  useServedServer(SERVER, access);
  const [current, setCurrent] = useState(start);
  return (
    <Suspense fallback={null}>
      <FeedbackSection
        server={SERVER}
        live={current}
        onSaved={(saved) => {
          setCurrent(saved);
          onSaved(saved);
        }}
        retryResources={() => undefined}
        onRefetch={async () => {
          const res = await fetch(`http://localhost${BASE}/config`);
          return (await res.json()) as LiveConfig;
        }}
      />
    </Suspense>
  );
}

async function show(start: LiveConfig = live({ config: config({ panels: PANELS }) }), answers: Record<string, ApiAnswer> = {}, access?: ServerAccess, ready = 'Ask for feedback when a ticket closes') {
  await catalog.ready();
  const api = mockApi(answers);
  const onSaved = vi.fn();
  const page = renderPage(<Page start={start} access={access} onSaved={onSaved} />, { url: `/dashboard/${SERVER}/configs/automation?tab=feedback`, path: '/dashboard/:server/configs/automation', me: avaMe() });
  store = page.store;
  await screen.findByRole('checkbox', { name: ready });
  return { ...page, ...api, onSaved };
}

const preview = () => screen.getByRole('complementary', { name: 'Live preview' });
const question = () => screen.getByRole('textbox', { name: 'Question' });

describe('Automation: the Feedback tab', () => {
  it('shows the bot\'s own question in the preview until one is written, and follows every keystroke', async () => {
    const user = userEvent.setup();
    await show();
    expect(question()).toHaveAttribute('placeholder', FEEDBACK_BOT_TEXT.en.question);
    expect(within(preview()).getByText(FEEDBACK_BOT_TEXT.en.question)).toBeInTheDocument();
    for (const stars of ['1 ★', '2 ★', '3 ★', '4 ★', '5 ★']) expect(within(preview()).getByText(stars)).toBeInTheDocument();
    await user.type(question(), 'How was **it**?');
    expect(within(preview()).getByText('it').tagName).toBe('STRONG');
    expect(within(preview()).queryByText(FEEDBACK_BOT_TEXT.en.question)).toBeNull();
    // The comment box the star buttons open.
    await user.click(within(preview()).getByRole('button', { name: 'Comment' }));
    expect(within(preview()).getAllByText(FEEDBACK_BOT_TEXT.en.comment).length).toBeGreaterThan(0);
  });

  it('says which panels ask: the server\'s switch for those that follow it, each panel\'s own choice otherwise', async () => {
    const user = userEvent.setup();
    await show();
    expect(screen.getByText('1 of 3 panels asks for feedback.')).toBeInTheDocument();
    expect(within(preview()).queryByText(/No panel asks for feedback now/)).toBeNull();
    const support = screen.getByRole('combobox', { name: 'Feedback for “Support”' });
    expect(support).toHaveValue('server');
    expect(within(support).getByRole('option', { name: "Server's setting (off)" })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Ask for feedback when a ticket closes' }));
    expect(within(support).getByRole('option', { name: "Server's setting (on)" })).toBeInTheDocument();
    expect(screen.getByText('2 of 3 panels ask for feedback.')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Feedback for “Billing”' }), 'off');
    await user.click(screen.getByRole('checkbox', { name: 'Ask for feedback when a ticket closes' }));
    expect(screen.getByText('No panel asks for feedback.')).toBeInTheDocument();
    expect(within(preview()).getByText(/No panel asks for feedback now: nobody gets this message/)).toBeInTheDocument();
  });

  it('saves the server\'s switch, the question and each panel\'s choice against the version it started from', async () => {
    const user = userEvent.setup();
    const saved = live({ version: 5, config: config({ panels: [PANELS[0]!, { ...PANELS[1]!, feedback: null }, PANELS[2]!], feedback: { enabled: true, question: 'How did we do?' } }) });
    const page = await show(undefined, { [`PUT ${BASE}/config`]: saved });
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Ask for feedback when a ticket closes' }));
    await user.type(question(), 'How did we do?');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Feedback for “Billing”' }), 'server');
    expect(screen.getByText('Unsaved changes.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(page.onSaved).toHaveBeenCalledWith(saved));
    const [body] = bodies(page.fetchMock, 'PUT', `${BASE}/config`) as Array<{ expectedVersion: number; config: { feedback: unknown; panels: Array<{ id: string; feedback: boolean | null }> } }>;
    expect(body!.expectedVersion).toBe(4);
    expect(body!.config.feedback).toEqual({ enabled: true, question: 'How did we do?' });
    expect(body!.config.panels.map((p) => [p.id, p.feedback])).toEqual([
      ['support', null],
      ['billing', null],
      ['bugs', false],
    ]);
    expect(await screen.findByText('No unsaved changes.')).toBeInTheDocument();
  });

  it('a question past 200 characters: said at the field, nothing sent', async () => {
    const user = userEvent.setup();
    const page = await show();
    await user.click(question());
    await user.paste('x'.repeat(201));
    expect(await screen.findByText('Too long: 201 of at most 200 characters.')).toBeInTheDocument();
    expect(question()).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(question()).toHaveFocus());
    expect(bodies(page.fetchMock, 'PUT', `${BASE}/config`)).toEqual([]);
  });

  it('someone saved meanwhile: says so and loads their version, keeping the changes here', async () => {
    const user = userEvent.setup();
    const theirs = live({ version: 6, config: config({ panels: PANELS, general: { ...config().general, claiming: false } }) });
    await show(undefined, { [`PUT ${BASE}/config`]: () => apiError(409, 1013, 'Someone saved version 6 meanwhile.'), [`GET ${BASE}/config`]: () => json(theirs) });
    await user.click(screen.getByRole('checkbox', { name: 'Ask for feedback when a ticket closes' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Someone else saved the configuration meanwhile')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load the newest version' }));
    expect(await screen.findByText('Loaded version 6; your changes are kept.')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Ask for feedback when a ticket closes' })).toBeChecked();
  });

  it('without panels: says so and leads to the Panel Menu', async () => {
    await show(live({ config: config({ panels: [] }) }));
    expect(screen.getByText(/This server has no panels yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the Panel Menu' })).toHaveAttribute('href', `/dashboard/${SERVER}/configs`);
  });

  it('read-only for a member whose roles only read the panels', async () => {
    await show(undefined, {}, { via: 'roles', areas: { panels: 'read', tickets: null, statistics: null, logs: null, configs: null, premium: null }, grantedBy: ['Helpers'] } as unknown as ServerAccess);
    expect(screen.getByRole('checkbox', { name: 'Ask for feedback when a ticket closes' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('in German, with the bot\'s German question for a German server', async () => {
    await changeLocale('de');
    await show(live({ config: config({ panels: PANELS, general: { ...config().general, language: 'de' } }) }), {}, undefined, 'Beim Schließen eines Tickets um Feedback bitten');
    expect(within(screen.getByRole('complementary', { name: /Vorschau/ })).getByText(FEEDBACK_BOT_TEXT.de.question)).toBeInTheDocument();
    expect(screen.getByText(/Sprache des Servers \(Deutsch\)/)).toBeInTheDocument();
  });
});

describe('Automation: the Feedback tab in its page', () => {
  it('opens from ?tab=feedback, saves, and the page says which version was saved', async () => {
    const user = userEvent.setup();
    const saved = live({ version: 5, config: config({ panels: PANELS, feedback: { enabled: true, question: '' } }) });
    const page = await showAutomation('?tab=feedback', { [`GET ${BASE}/config`]: live({ config: config({ panels: PANELS }) }), [`PUT ${BASE}/config`]: saved });
    store = page.store;
    await user.click(await screen.findByRole('checkbox', { name: 'Ask for feedback when a ticket closes' }, { timeout: 10_000 }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved: this is version 5 of the configuration.')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Ask for feedback when a ticket closes' })).toBeChecked();
  });
});
