import { signInWithHint } from './session';

/** A visitor's prerendered `/`: the notices a visitor reads marked on it (`id:revision`), no `data-start`. */
export const VISITOR_ROOT = /<div id="root" data-prerendered="\/" data-notices="[^"]*">/;

/**
 * Publishes a notice as Sam (staff, DASHBOARD_SUPPORT_SYSTEM_WRITE) through the API, as the System
 * Update page does; returns a function that withdraws it. The demo's own active notice is for
 * signed-in users, so a test that needs a visitor to see one publishes its own.
 */
export async function publishNotice(
  baseURL: string,
  notice: { text: string; severity?: 'info' | 'maintenance' | 'critical'; audience?: 'everyone' | 'signedIn' | 'staff' },
): Promise<{ id: string; withdraw: () => Promise<void> }> {
  const jar = await signInWithHint(baseURL, 'sam');
  const { origin } = new URL(baseURL);
  const send = async (path: string, body: unknown) => {
    const res = await fetch(new URL(path, baseURL), {
      method: 'POST',
      headers: { cookie: jar.header(), 'content-type': 'application/json', 'x-requested-with': 'tickety', origin },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as { id?: string };
  };
  const created = await send('/api/staff/announcements', {
    severity: notice.severity ?? 'info',
    text: notice.text,
    audience: notice.audience ?? 'everyone',
    startsAt: null,
    endsAt: null,
    publish: true,
  });
  const id = created.id;
  if (!id) throw new Error(`POST /api/staff/announcements: no id in ${JSON.stringify(created)}`);
  return { id, withdraw: async () => void (await send(`/api/staff/announcements/${id}/withdraw`, {})) };
}
