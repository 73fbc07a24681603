import { defineRemoteRoutes } from '@tickety/shared';

function Home() {
  return <h1 className="text-3xl font-bold text-primary-600">Tickety home</h1>;
}

export default defineRemoteRoutes({
  id: 'marketing',
  // biome-ignore lint/suspicious/noExplicitAny: bootstrap placeholder, replaced by the real pages
  routes: { home: { Component: Home } } as any,
});
