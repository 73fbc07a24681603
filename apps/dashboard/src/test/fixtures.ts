import { signedInMe, testGuild } from '@tickety/shared/testing';

/** Ava-like servers: one she owns (bot added, premium), one she administers (no bot), one she manages (bot), one she is only in. */
export const ARCADE = testGuild({ id: '1100000000000000001', name: "Ava's Arcade", owner: true, permissions: '2251799813685247', canManage: true, botInGuild: true, iconUrl: 'https://cdn.test/icons/1.png' });
export const STUDY = testGuild({ id: '1100000000000000003', name: 'Study Hall', permissions: '8', canManage: true, botInGuild: false });
export const PIXEL = testGuild({ id: '1100000000000000005', name: 'Pixel Guild', permissions: '32', canManage: true, botInGuild: true });
export const COZY = testGuild({ id: '1100000000000000004', name: 'Cozy Corner', permissions: '3072', canManage: false, botInGuild: true });

export function avaMe(over: Parameters<typeof signedInMe>[0] = {}) {
  return signedInMe({
    guilds: [ARCADE, STUDY, PIXEL, COZY],
    sub: { premium: true, servers: [ARCADE.id] },
    guildsRefreshedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    ...over,
  });
}
