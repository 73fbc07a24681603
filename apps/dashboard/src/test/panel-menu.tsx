import type { ServerAccess } from '@tickety/api-contract';
/** Renders the Panel Menu as the shell would, with the API's answers (tests only). */
import { Link } from '@tickety/shared';
import { type ApiAnswer, apiError, mockApi, renderPage, useServedServer } from '@tickety/shared/testing';
import { Suspense } from 'react';
import PanelMenuRoute from '../features/configs/route';
import { live, posts, resources } from './config-fixtures';
import { ARCADE, avaMe } from './fixtures';

export const SERVER = ARCADE.id;
export const BASE = `/api/guilds/${SERVER}`;

/** The answer of a route that does not exist yet (404, code 1002), as the API gives it today. */
export const missing = (path: string) => () => apiError(404, 1002, `Nothing at GET ${path}`);

function Page({ access }: { access?: ServerAccess }) {
  useServedServer(SERVER, access);
  // The shell renders pages in Suspense (the route's page is a lazy chunk).
  return (
    <Suspense fallback={null}>
      <PanelMenuRoute />
    </Suspense>
  );
}

/** The Panel Menu of Ava's Arcade; `access`: what the shell read from `GET /api/guilds/:server` (full when left out). */
export function showMenu(query = '', answers: Record<string, ApiAnswer> = {}, access?: ServerAccess) {
  const api = mockApi({
    [`GET ${BASE}/config`]: live(),
    [`GET ${BASE}/resources`]: resources(),
    [`GET ${BASE}/posts`]: posts(),
    // The configuration check (features/health): nothing to report unless a test says otherwise.
    [`GET ${BASE}/config/health`]: { version: 1, problems: [], checkedAt: '2026-03-01T10:00:00.000Z' },
    ...answers,
  });
  const page = renderPage(<Page access={access} />, {
    url: `/dashboard/${SERVER}/configs${query}`,
    path: '/dashboard/:server/configs',
    me: avaMe(),
    routes: [{ path: '/elsewhere', element: <p>Somewhere else</p> }],
    wrap: (element) => (
      <>
        <Link to="/elsewhere">Elsewhere</Link>
        {element}
      </>
    ),
  });
  return { ...page, ...api };
}

/** The JSON bodies sent to `method path`. */
export function bodies(fetchMock: ReturnType<typeof mockApi>['fetchMock'], method: string, path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => new URL(String(input)).pathname === path && (init?.method ?? 'GET') === method)
    .map(([, init]) => JSON.parse(String(init?.body)));
}
