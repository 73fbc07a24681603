import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { requestConfigEarly } from './app/early-config';
import { startApp } from './app/start';
import { pageShown, prepareRoot } from './app/takeover';

// A prerendered public page stays on screen until the app shows the same page (app/takeover.ts).
const root = createRoot(prepareRoot());

/** Without config.json nothing can run: say so plainly, with a way to try again. */
function ConfigFailed({ message }: { message: string }) {
  return (
    <main className="mx-auto max-w-lg px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">The dashboard could not start</h1>
      <p className="mt-3 text-surface-600 dark:text-surface-400">{message}</p>
      <button type="button" className="mt-6 rounded-lg bg-primary-600 px-4 py-2 font-semibold text-white" onClick={() => window.location.reload()}>
        Try again
      </button>
    </main>
  );
}

requestConfigEarly().then(
  // A transition: React renders the first page in slices and yields to the browser between them,
  // instead of one long task (Total Blocking Time on slow phones).
  (config) => startTransition(() => root.render(startApp(config).app)),
  (error: unknown) => {
    root.render(<ConfigFailed message={error instanceof Error ? error.message : String(error)} />);
    pageShown();
  },
);
