import { createRoot } from 'react-dom/client';
import { Suspense, lazy } from 'react';
import { registerRemote, loadRemoteRoutes } from './remotes/registry';
import './styles.css';

async function main() {
  const config = await (await fetch('/config.json', { cache: 'no-cache' })).json();
  registerRemote('marketing', config.remotes.marketing);
  const Home = lazy(async () => ({ default: (await loadRemoteRoutes('marketing')).routes.home.Component }));
  createRoot(document.getElementById('root')!).render(
    <Suspense fallback={<p>Loading…</p>}>
      <Home />
    </Suspense>,
  );
}
main();
