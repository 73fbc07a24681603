import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ServerConfig } from '@tickety/api-contract';
import { changeLocale } from '@tickety/shared';
import { apiError, mockApi, renderPage, resetShared, useServedServer } from '@tickety/shared/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { showAutomation } from '../../../../test/automation';
import { config, live, panel } from '../../../../test/config-fixtures';
import { ARCADE, avaMe } from '../../../../test/fixtures';
import type { LiveConfig } from '../../api';
import { catalog } from './i18n';
import Section from './section';

const SERVER = ARCADE.id;
const BASE = `/api/guilds/${SERVER}`;
let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));
beforeAll(async () => {
  await catalog.ready('en');
  await catalog.ready('de');
});

function Wrapper(props: { start: LiveConfig; onSaved(live: LiveConfig): void }) {
  useServedServer(SERVER);
  return <Section server={SERVER} live={props.start} onSaved={props.onSaved} onRefetch={async () => props.start} retryResources={() => undefined} />;
}

const saveOk = (_url: URL, init?: RequestInit) => new Response(JSON.stringify(live({ version: 5, config: JSON.parse(String(init?.body)).config })), { headers: { 'content-type': 'application/json' } });

function show(start: LiveConfig = live({ config: config({ panels: [panel('support', 'Support'), panel('billing', 'Billing')] }) }), answers: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ [`PUT ${BASE}/config`]: saveOk, ...answers });
  const onSaved = vi.fn();
  const page = renderPage(<Wrapper start={start} onSaved={onSaved} />, { url: `/dashboard/${SERVER}/configs/automation?tab=auto-close`, path: '/dashboard/:server/configs/automation', me: avaMe() });
  store = page.store;
  return { ...page, ...api, onSaved };
}

const sent = (fetchMock: ReturnType<typeof mockApi>['fetchMock']) =>
  fetchMock.mock.calls.filter(([input, init]) => new URL(String(input)).pathname === `${BASE}/config` && init?.method === 'PUT').map(([, init]) => JSON.parse(String(init?.body)) as { expectedVersion: number; config: ServerConfig });
const preview = () => screen.getByRole('complementary', { name: 'Live preview' });

describe('Automation: the Auto-close tab', () => {
  it('edits the server’s rules with a live preview of the warning, and saves them with the rest of the configuration', async () => {
    const user = userEvent.setup();
    const { fetchMock, onSaved } = show();
    expect(await screen.findByRole('heading', { level: 2, name: 'Auto-close' })).toBeInTheDocument();
    expect(within(preview()).getByText(/These rules post no warning/)).toBeInTheDocument();
    expect(screen.getAllByText('Never closes by itself.')).toHaveLength(2);
    await user.click(screen.getByRole('checkbox', { name: 'Close when the member does not answer' }));
    const wait = screen.getByRole('spinbutton', { name: 'Hours to wait for the member' });
    expect(wait).toHaveValue(24);
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Warn this many hours before' }), { target: { value: '3' } });
    // The bot's own text in the server's language, with the Keep open button.
    expect(await within(preview()).findByText(/this ticket closes/)).toBeInTheDocument();
    expect(within(preview()).getByText('Keep open', { selector: 'span' })).toBeInTheDocument();
    const text = screen.getByRole('textbox', { name: 'Warning text' });
    fireEvent.change(text, { target: { value: 'Hey {user}, **closing** {time}' } });
    expect(within(preview()).getByText('closing').tagName).toBe('STRONG');
    expect(within(preview()).queryByText('{user}')).toBeNull();
    expect(screen.getAllByText(/Closes 24 h after a staff reply the member has not answered\. Warns 3 h before\./)).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    const [body] = sent(fetchMock);
    expect(body?.expectedVersion).toBe(4);
    expect(body?.config.autoClose).toEqual({ memberSilentHours: 24, staffSilentHours: null, onOpenerLeave: false, warningHours: 3, warningMessage: 'Hey {user}, **closing** {time}' });
    expect(body?.config.panels.map((p) => p.autoClose)).toEqual([null, null]);
  });

  it('gives a panel its own rules, and back to the server’s', async () => {
    const user = userEvent.setup();
    const { fetchMock } = show();
    await screen.findByRole('heading', { level: 2, name: 'Auto-close' });
    const billing = screen.getByRole('group', { name: 'Auto-close for “Billing”' }).closest('li')!;
    await user.click(within(billing).getByRole('radio', { name: 'Its own rules' }));
    await user.click(within(billing).getByRole('checkbox', { name: 'Close when staff do not answer' }));
    fireEvent.change(within(billing).getByRole('spinbutton', { name: 'Hours to wait for staff' }), { target: { value: '12' } });
    await user.click(within(billing).getByRole('checkbox', { name: 'Close when the member who opened it leaves the server' }));
    // The preview can show the panel's warning (none: 0 hours).
    await user.selectOptions(within(preview()).getByRole('combobox', { name: 'Preview for' }), 'billing');
    expect(within(preview()).getByText(/These rules post no warning/)).toBeInTheDocument();
    const support = screen.getByRole('group', { name: 'Auto-close for “Support”' });
    await user.click(within(support).getByRole('radio', { name: 'Its own rules' }));
    await user.click(within(support).getByRole('radio', { name: "Use the server's rules" }));
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    await waitFor(() => expect(sent(fetchMock)).toHaveLength(1));
    expect(sent(fetchMock)[0]?.config.panels.map((p) => [p.id, p.autoClose])).toEqual([
      ['support', null],
      ['billing', { memberSilentHours: null, staffSilentHours: 12, onOpenerLeave: true, warningHours: 0, warningMessage: '' }],
    ]);
  });

  it('checks the rules with the shared schema at the field and sends nothing; the server’s refusal shows at the field too', async () => {
    const user = userEvent.setup();
    const { fetchMock } = show(undefined, { [`PUT ${BASE}/config`]: () => apiError(400, 1001, 'autoClose.memberSilentHours: The wait for the member can be at most 720 hours.') });
    await screen.findByRole('heading', { level: 2, name: 'Auto-close' });
    await user.click(screen.getByRole('checkbox', { name: 'Close when the member does not answer' }));
    const warning = screen.getByRole('spinbutton', { name: 'Warn this many hours before' });
    fireEvent.change(warning, { target: { value: '24' } });
    expect(await screen.findAllByText('The warning must come before the close: less than 24 hours.')).not.toHaveLength(0);
    await waitFor(() => expect(warning).toHaveAttribute('aria-invalid', 'true'));
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    expect(sent(fetchMock)).toEqual([]);
    fireEvent.change(warning, { target: { value: '2' } });
    await waitFor(() => expect(warning).not.toHaveAttribute('aria-invalid'));
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    await waitFor(() => expect(sent(fetchMock)).toHaveLength(1));
    expect(await screen.findByText('The wait for the member can be at most 720 hours.')).toBeInTheDocument();
  });

  it('speaks German, and previews the bot’s German warning for a German server', async () => {
    await changeLocale('de');
    try {
      show(live({ config: config({ general: { ...config().general, language: 'de' }, autoClose: { memberSilentHours: 48, staffSilentHours: null, onOpenerLeave: true, warningHours: 6, warningMessage: '' } }) }));
      expect(await screen.findByRole('heading', { level: 2, name: 'Automatisch schließen' })).toBeInTheDocument();
      expect(screen.getByRole('checkbox', { name: 'Schließen, wenn das Mitglied nicht antwortet' })).toBeChecked();
      expect(within(screen.getByRole('complementary')).getByText('Offen lassen', { selector: 'span' })).toBeInTheDocument();
      expect(within(screen.getByRole('complementary')).getByText(/dieses Ticket wird/)).toBeInTheDocument();
    } finally {
      await changeLocale('en');
    }
  });
});

describe('Automation page: the Auto-close tab', () => {
  it('opens from the page’s tab with the server’s saved rules', async () => {
    const page = await showAutomation('?tab=auto-close', {
      [`GET ${BASE}/config`]: live({ config: config({ autoClose: { memberSilentHours: 48, staffSilentHours: null, onOpenerLeave: true, warningHours: 0, warningMessage: '' } }) }),
    });
    store = page.store;
    expect(await screen.findByRole('heading', { level: 2, name: 'Auto-close' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Auto-close', current: 'page' })).toBeInTheDocument();
    expect(screen.getByRole('spinbutton', { name: 'Hours to wait for the member' })).toHaveValue(48);
    expect(screen.getByRole('checkbox', { name: 'Close when the member who opened it leaves the server' })).toBeChecked();
    expect(page.unexpected).toEqual([]);
  });
});
