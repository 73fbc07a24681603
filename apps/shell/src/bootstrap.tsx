import { startI18n } from '@tickety/shared';
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { requestConfigEarly } from './app/early-config';
import './lib/i18n';
import { ConfigFailed } from './app/config-failed';
import { startApp } from './app/start';
import { pageShown, prepareRoot } from './app/takeover';

// A prerendered public page stays on screen until the app shows the same page (app/takeover.ts).
const root = createRoot(prepareRoot());

// The reader's language (the shared and shell catalogues in it) arrives beside config.json.
// Should the reader's language fail to download, the app starts in English rather than not at all.
const language = startI18n().catch(() => startI18n('en'));
Promise.all([requestConfigEarly(), language]).then(
  // A transition: React renders the first page in slices and yields to the browser between them,
  // instead of one long task (Total Blocking Time on slow phones).
  ([config]) => startTransition(() => root.render(startApp(config).app)),
  async (error: unknown) => {
    // Said in the reader's language once their catalogue is in (in English if it failed too).
    await language.catch(() => undefined);
    root.render(<ConfigFailed error={error} />);
    pageShown();
  },
);
