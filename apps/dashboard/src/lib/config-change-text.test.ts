import { changeLocale } from '@tickety/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { config, panel, ROLE_SUPPORT } from '../test/config-fixtures';
import { changesText, describeChanges, parsePath } from './config-change-text';
import { catalog } from './changes/i18n';

const { t } = catalog;

describe('parsePath', () => {
  it('splits the ids in brackets out of the path', () => {
    expect(parsePath('panels[support].form[q1].label')).toEqual([{ key: 'panels', id: 'support' }, { key: 'form', id: 'q1' }, { key: 'label' }]);
    expect(parsePath('general.claiming')).toEqual([{ key: 'general' }, { key: 'claiming' }]);
    expect(parsePath('panels.order')).toEqual([{ key: 'panels' }, { key: 'order' }]);
    expect(parsePath(`access[${ROLE_SUPPORT}].areas.logs`)).toEqual([{ key: 'access', id: ROLE_SUPPORT }, { key: 'areas' }, { key: 'logs' }]);
    expect(parsePath('(all)')).toEqual([{ key: '(all)' }]);
  });
});

describe('describeChanges', () => {
  afterEach(() => changeLocale('en'));

  it('names panels and questions from the configuration and translates every field', () => {
    const lines = changesText(
      t,
      [
        { path: 'panels[support].button.label', before: 'Open', after: 'Open a ticket' },
        { path: 'panels[support].embed.colour', before: 0x5865f2, after: 0xff0000 },
        { path: 'panels[support].embed.colour', before: 0xff0000, after: null },
        { path: 'general.claiming', before: true, after: false },
        { path: 'general.transcriptChannelId', before: '667788990011223344', after: null },
        { path: 'panels[support].supportRoleIds', before: [], after: [ROLE_SUPPORT] },
        { path: 'panels[support].form[q1].required', before: true, after: false },
        { path: 'panels[support].claiming', before: null, after: true },
        { path: 'panels[support].button.style', before: 'primary', after: 'danger' },
        { path: 'panels[support].supportHours.hours.monday', before: [], after: [{ from: '09:00', to: '17:00' }] },
      ],
      config(),
    ).split('\n');
    expect(lines).toEqual([
      'Panel “Support” › Button › Label: “Open” → “Open a ticket”',
      'Panel “Support” › Message › Colour: #5865F2 → #FF0000',
      "Panel “Support” › Message › Colour: #FF0000 → Discord's default",
      'General settings › Claiming: Yes → No',
      'General settings › Transcript channel: 667788990011223344 → None',
      `Panel “Support” › Support team: None → ${ROLE_SUPPORT}`,
      'Panel “Support” › Question “What happened?” › Required: Yes → No',
      'Panel “Support” › Claiming: Server default → Yes',
      'Panel “Support” › Button › Style: Blurple → Red',
      'Panel “Support” › Support hours › Opening hours › Monday: Closed → 09:00–17:00',
    ]);
  });

  it('names a panel by id without a configuration, and by the name a removed or added panel carries', () => {
    const views = describeChanges(t, [
      { path: 'panels[billing].button.label', before: 'Pay', after: 'Billing help' },
      { path: 'panels[faq]', before: panel('faq', 'FAQ') },
      { path: 'panels[new]', after: panel('new', 'Refunds') },
      { path: 'panels.order', before: ['faq', 'billing'], after: ['billing', 'new'] },
    ]);
    expect(views.map((v) => v.labels.join(' › '))).toEqual(['Panel “billing” › Button › Label', 'Panel “FAQ”', 'Panel “Refunds”', 'Panels › Order']);
    expect(views.map((v) => v.kind)).toEqual(['changed', 'removed', 'added', 'changed']);
    expect(views[1]!.after).toBeNull();
    expect(views[2]!.before).toBeNull();
    expect(changesText(t, [{ path: 'panels[faq]', before: panel('faq', 'FAQ') }])).toBe('Panel “FAQ”: removed (was Title: “FAQ”; Button: “Open a ticket”)');
    expect(changesText(t, [{ path: 'panels.order', before: ['faq', 'billing'], after: ['billing', 'faq'] }], config({ panels: [panel('faq', 'FAQ'), panel('billing', 'Billing')] }))).toBe(
      'Panels › Order: “FAQ”, “Billing” → “Billing”, “FAQ”',
    );
  });

  it('summarises objects and lists readably, never as JSON', () => {
    const text = changesText(t, [
      { path: 'access', before: [], after: [{ roleId: ROLE_SUPPORT, areas: { panels: 'write', logs: 'read' } }] },
      { path: `access[${ROLE_SUPPORT}].areas.logs`, before: 'read', after: 'write' },
      { path: 'panels[support].supportHours', before: null, after: { timeZone: 'Europe/Berlin', hours: { monday: [{ from: '09:00', to: '17:00' }], tuesday: [] }, outOfHoursMessage: 'Back soon' } },
      { path: 'panels[support].button.emoji', before: '🎫', after: { id: '990011223344556677', name: 'coin', animated: false } },
      { path: 'panels[support].form[q2]', after: { id: 'q2', label: 'Order number', style: 'short', required: false, minLength: 0, maxLength: 20, placeholder: '' } },
      { path: 'channel', after: '#open-a-ticket' },
      { path: 'version', before: 3, after: 1234 },
    ]);
    expect(text.split('\n')).toEqual([
      `Dashboard access: None → Role ${ROLE_SUPPORT}: Panels: Read and write, Web Logs: Read`,
      `Role ${ROLE_SUPPORT} › Areas › Web Logs: Read → Read and write`,
      'Panel “support” › Support hours: Off → Time zone: Europe/Berlin; Opening hours: Monday: 09:00–17:00; Tuesday: Closed; Out-of-hours message: “Back soon”',
      'Panel “support” › Button › Emoji: 🎫 → :coin:',
      'Panel “support” › Question “Order number”: added → “Order number” (Short (one line), optional)',
      'Channel: added → #open-a-ticket',
      'Posted version: 3 → 1,234',
    ]);
    expect(text).not.toMatch(/[{}[\]]/);
  });

  it('speaks German', async () => {
    await changeLocale('de');
    expect(changesText(t, [{ path: 'panels[support].button.label', before: 'Open', after: 'Ticket öffnen' }, { path: 'general.twoStepClose', before: false, after: true }], config()).split('\n')).toEqual([
      'Panel „Support“ › Button › Beschriftung: „Open“ → „Ticket öffnen“',
      'Allgemeine Einstellungen › Schließen in zwei Schritten: Nein → Ja',
    ]);
  });
});

describe('ticket labels', () => {
  it('names a label from the configuration or from the change, its fields translated', () => {
    const urgent = { id: 'urgent', name: 'Urgent', colour: 0xff0000 };
    const views = describeChanges(t, [
      { path: 'labels[urgent]', after: urgent },
      { path: 'labels[vip].name', before: 'VIP', after: 'Very important' },
    ]);
    expect(views.map((view) => [view.labels.join(' › '), view.kind])).toEqual([
      ['Label “Urgent”', 'added'],
      ['Label “Very important” › Name', 'changed'],
    ]);
    expect(describeChanges(t, [{ path: 'labels.order', before: ['a', 'b'], after: ['b', 'a'] }])[0]!.labels[0]).toBe('Ticket labels');
  });
});

describe('tags', () => {
  afterEach(() => changeLocale('en'));

  it('names tags from the configuration or the change itself, and their fields, in English and German', async () => {
    const refund = { id: 'refund', name: 'refund', content: 'Refunds take 5 days.', embed: null, keywords: ['money'] };
    const changes = [
      { path: 'tags[refund]', after: refund },
      { path: 'tags[rules].content', before: 'Be kind.', after: 'Be kind, always.' },
      { path: 'tags[rules].keywords', before: [], after: ['conduct', 'behaviour'] },
      { path: 'tags[old]', before: { ...refund, id: 'old', name: 'old-refund' } },
    ];
    const lines = changesText(t, changes, config({ tags: [{ ...refund, id: 'rules', name: 'rules' }] })).split('\n');
    expect(lines[0]).toMatch(/^Tag \/refund: added → .*Text: “Refunds take 5 days\.”.*Keywords: money/);
    expect(lines.slice(1)).toEqual(['Tag /rules › Text: “Be kind.” → “Be kind, always.”', 'Tag /rules › Keywords: None → conduct, behaviour', expect.stringMatching(/^Tag \/old-refund: removed/)]);
    await changeLocale('de');
    expect(changesText(t, [changes[2]!], config({ tags: [{ ...refund, id: 'rules', name: 'rules' }] }))).toBe('Tag /rules › Stichwörter: Keine → conduct, behaviour');
  });

  it('says which tag a dashboard reply was written from (Web Logs ticket.reply)', () => {
    expect(changesText(t, [{ path: 'tag', after: 'refund' }])).toBe('Tag: added → “refund”');
  });
});

describe('auto-close', () => {
  afterEach(() => changeLocale('en'));
  const changes = [
    { path: 'autoClose.memberSilentHours', before: null, after: 24 },
    { path: 'autoClose.warningMessage', before: '', after: 'Closing {time}' },
    { path: 'panels[support].autoClose', before: null, after: { memberSilentHours: null, staffSilentHours: 6, onOpenerLeave: true, warningHours: 0, warningMessage: '' } },
    { path: 'panels[support].autoClose.staffSilentHours', before: 6, after: null },
  ];

  it('names the rules and says what null means (off; a panel following the server’s)', () => {
    const lines = changesText(t, changes, config()).split('\n');
    expect(lines[0]).toBe('Auto-close › Hours to wait for the member: Off → 24');
    expect(lines[1]).toMatch(/^Auto-close › Warning text: .* → “Closing \{time\}”$/);
    expect(lines[2]).toMatch(/^Panel “Support” › Auto-close: Server default → /);
    expect(lines[2]).toContain('Close when the opener leaves');
    expect(lines[3]).toBe('Panel “Support” › Auto-close › Hours to wait for staff: 6 → Off');
  });

  it('speaks German', async () => {
    await changeLocale('de');
    expect(changesText(t, changes.slice(0, 1), config())).toBe('Automatisch schließen › Stunden Warten auf das Mitglied: Aus → 24');
  });
});

describe('feedback after close', () => {
  afterEach(() => changeLocale('en'));

  it('names the server\'s feedback settings and a panel\'s choice, null as the server\'s and an empty question as the bot\'s own', async () => {
    const changes = [
      { path: 'feedback.enabled', before: false, after: true },
      { path: 'feedback.question', before: '', after: 'How did we do?' },
      { path: 'panels[support].feedback', before: null, after: false },
    ];
    expect(changesText(t, changes, config()).split('\n')).toEqual([
      'Feedback after close › On: No → Yes',
      'Feedback after close › Question: The bot\'s default → “How did we do?”',
      'Panel “Support” › Feedback after close: Server default → No',
    ]);
    await changeLocale('de');
    await catalog.ready('de');
    expect(changesText(t, changes, config()).split('\n')[1]).toBe('Feedback nach dem Schließen › Frage: Standard des Bots → „How did we do?“');
  });
});
