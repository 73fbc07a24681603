/** Renders the Automation page as the shell would, with the API's answers (tests only). */
import type { ServerAccess } from '@tickety/api-contract';
import { type ApiAnswer, mockApi, renderPage, useServedServer } from '@tickety/shared/testing';
import { Suspense } from 'react';
import Automation from '../features/configs/automation/automation';
import { catalog } from '../features/configs/automation/i18n';
import { live, resources } from './config-fixtures';
import { ARCADE, avaMe } from './fixtures';
import { BASE } from './panel-menu';

function Page({ access }: { access?: ServerAccess }) {
  useServedServer(ARCADE.id, access);
  return (
    <Suspense fallback={null}>
      <Automation />
    </Suspense>
  );
}

/** The Automation page of Ava's Arcade at `?<query>`; `access`: the reader's (full when left out). */
export async function showAutomation(query = '', answers: Record<string, ApiAnswer> = {}, access?: ServerAccess) {
  await catalog.ready('en');
  const api = mockApi({ [`GET ${BASE}/config`]: live(), [`GET ${BASE}/resources`]: resources(), ...answers });
  const page = renderPage(<Page access={access} />, {
    url: `/dashboard/${ARCADE.id}/configs/automation${query}`,
    path: '/dashboard/:server/configs/automation',
    me: avaMe(),
  });
  return { ...page, ...api };
}
