import type { RouteTable } from '@tickety/shared';

/**
 * The pages the dashboard remote owns: Manage Servers, the server dashboard (the shell's server
 * layout, with these pages in its sidebar, in this order) and the transcripts. Each server page
 * names its dashboard area: the shell shows it only where the user's access to the server reads that
 * area (the API checks the same areas). Emitted as routes.json by its build.
 */
export const routeTable = {
  schema: 1,
  remote: 'dashboard',
  mounts: ['/dashboard', '/transcript', '/transcripts'],
  routes: [
    { path: '/dashboard', layout: 'login', page: 'manageServers', title: 'Manage Servers', requiresAuth: true },
    {
      path: '/dashboard/:server',
      layout: 'server',
      requiresAuth: true,
      children: [
        { index: true, redirect: 'configs' },
        { path: 'configs', page: 'serverConfigs', title: 'Panel Menu', requiresAuth: true, sidebar: { label: 'Panel Menu', icon: 'panels' }, area: 'panels' },
        // Auto-close, tags, the blocklist and feedback: part of the configuration, a page of its own.
        {
          path: 'configs/automation',
          page: 'serverAutomation',
          title: 'Automation',
          requiresAuth: true,
          sidebar: { label: 'Automation', icon: 'settings' },
          area: 'panels',
        },
        { path: 'tickets', page: 'serverTickets', title: 'Tickets', requiresAuth: true, sidebar: { label: 'Tickets', icon: 'tickets' }, area: 'tickets' },
        // One ticket, beside the queue (a deep link; on a phone, its own screen).
        { path: 'tickets/:ticket', page: 'serverTickets', title: 'Tickets', requiresAuth: true, area: 'tickets' },
        { path: 'statistics', page: 'serverStatistics', title: 'Statistics', requiresAuth: true, sidebar: { label: 'Statistics', icon: 'statistics' }, area: 'statistics' },
        { path: 'premium', page: 'serverPremium', title: 'Server Premium', requiresAuth: true, sidebar: { label: 'Premium', icon: 'premium' }, area: 'premium' },
        { path: 'logs-web', page: 'serverLogsWeb', title: 'Web Logs', requiresAuth: true, sidebar: { label: 'Web Logs', icon: 'logs' }, area: 'logs' },
        // The server's transcripts: part of Web Logs (the spec fixes the sidebar's five pages).
        { path: 'logs-web/transcripts', page: 'serverTranscripts', title: 'Transcripts', requiresAuth: true, area: 'logs' },
        {
          path: 'server-configs',
          page: 'serverRestoreConfigs',
          title: 'Restore Configs',
          requiresAuth: true,
          sidebar: { label: 'Restore Configs', icon: 'restore' },
          area: 'configs',
        },
      ],
    },
    { path: '/transcript/v1/:channel/:attachment/:filename/:ex/:is/:hm', layout: 'transcript', page: 'transcriptV1', title: 'Transcript', requiresAuth: true },
    { path: '/transcript/v2/:server/:fileid', layout: 'transcript', page: 'transcriptV2', title: 'Transcript', requiresAuth: true },
    { path: '/transcripts', layout: 'login', page: 'yourTickets', title: 'Your tickets', requiresAuth: true },
  ],
} as const satisfies RouteTable;

export default routeTable;
