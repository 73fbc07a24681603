import { changeLocale, formatDateTime } from '@tickety/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { config, ROLE_MODS } from '../test/config-fixtures';
import { catalog } from './changes/i18n';
import { changesText } from './config-change-text';

const { t } = catalog;
const CLEO = '1000000000000000003';
const UNTIL = '2026-12-01T10:00:00.000Z';
const entry = { kind: 'user', id: CLEO, reason: 'Spam', addedBy: '1000000000000000001', addedAt: '2026-11-29T09:00:00.000Z', expiresAt: UNTIL };

describe('blocklist changes in Web Logs', () => {
  afterEach(() => changeLocale('en'));

  it('describes an entry added, changed and removed: who, why and until when (in the reader’s time zone)', async () => {
    await catalog.ready('en');
    const changes = [
      { path: `blocklist[${CLEO}]`, after: entry },
      { path: `blocklist[${CLEO}].reason`, before: 'Spam', after: 'Rude to staff' },
      { path: `blocklist[${CLEO}].expiresAt`, before: UNTIL, after: null },
      { path: `blocklist[${ROLE_MODS}]`, before: { ...entry, kind: 'role', id: ROLE_MODS, expiresAt: null } },
    ];
    expect(changesText(t, changes, config()).split('\n')).toEqual([
      `Blocklist entry ${CLEO}: added → Kind: Member; Reason: “Spam”; Blocked until: ${formatDateTime(UNTIL)}`,
      `Blocklist entry ${CLEO} › Reason: “Spam” → “Rude to staff”`,
      `Blocklist entry ${CLEO} › Blocked until: ${formatDateTime(UNTIL)} → Until removed`,
      `Blocklist entry ${ROLE_MODS}: removed (was Kind: Role; Reason: “Spam”; Blocked until: Until removed)`,
    ]);
  });

  it('in German', async () => {
    await changeLocale('de');
    await catalog.ready('de');
    expect(changesText(t, [{ path: `blocklist[${CLEO}].reason`, before: 'Spam', after: 'Beleidigend' }])).toBe(`Sperrlisten-Eintrag ${CLEO} › Grund: „Spam“ → „Beleidigend“`);
  });
});
