import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { startI18n } from '@tickety/shared';
import { afterEach } from 'vitest';
import { catalog as configs, editorCatalog as configsEditor } from '../features/configs/i18n';
import { catalog as changes } from '../lib/changes/i18n';
import { catalog as discordMessage } from '../components/discord/i18n';
import { catalog as tickets } from '../features/tickets/i18n';
import { catalog as logsWeb } from '../features/logs-web/i18n';
import { catalog as manageServers } from '../features/manage-servers/i18n';
import { catalog as premium } from '../features/premium/i18n';
import { catalog as serverConfigs } from '../features/server-configs/i18n';
import { catalog as statistics } from '../features/statistics/i18n';
import { catalog as transcript } from '../features/transcript/i18n';
import { catalog as transcripts } from '../features/transcripts/i18n';
import { configure } from '@testing-library/react';

// Tests run in English; a German test switches with changeLocale('de') and back in its afterEach.
// Pages render here without their route's loader, so every feature's messages are loaded up front.
await startI18n('en');
await Promise.all([changes, discordMessage, configs, configsEditor, logsWeb, manageServers, premium, serverConfigs, statistics, tickets, transcript, transcripts].map((feature) => feature.ready('en')));

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

// Under CI's load a lazy page can take seconds to appear: findBy* and waitFor wait up to 10 s
// (a limit for what never comes, not a speed check: speed is measured under bench/).
configure({ asyncUtilTimeout: 10_000 });
