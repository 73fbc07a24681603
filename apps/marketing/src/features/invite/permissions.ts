import type { Translate } from '@tickety/shared';
import { type MessageKey, t as translate } from '../../lib/i18n';

/** Discord permission bits the invite may ask for, with why the bot needs each (for the invite page). */
interface PermissionInfo {
  bit: number;
  name: string;
  why: string;
}

/** Catalogue keys of each known bit's name (Discord's own wording) and why the bot asks for it. */
const KNOWN: Record<number, { name: MessageKey; why: MessageKey }> = {
  0: { name: 'permission.createInvite.name', why: 'permission.createInvite.why' },
  1: { name: 'permission.kickMembers.name', why: 'permission.notNeeded' },
  2: { name: 'permission.banMembers.name', why: 'permission.notNeeded' },
  3: { name: 'permission.administrator.name', why: 'permission.administrator.why' },
  4: { name: 'permission.manageChannels.name', why: 'permission.manageChannels.why' },
  5: { name: 'permission.manageServer.name', why: 'permission.manageServer.why' },
  6: { name: 'permission.addReactions.name', why: 'permission.addReactions.why' },
  7: { name: 'permission.viewAuditLog.name', why: 'permission.viewAuditLog.why' },
  8: { name: 'permission.prioritySpeaker.name', why: 'permission.notNeeded' },
  9: { name: 'permission.video.name', why: 'permission.notNeeded' },
  10: { name: 'permission.viewChannels.name', why: 'permission.viewChannels.why' },
  11: { name: 'permission.sendMessages.name', why: 'permission.sendMessages.why' },
  12: { name: 'permission.sendTextToSpeechMessages.name', why: 'permission.notNeeded' },
  13: { name: 'permission.manageMessages.name', why: 'permission.manageMessages.why' },
  14: { name: 'permission.embedLinks.name', why: 'permission.embedLinks.why' },
  15: { name: 'permission.attachFiles.name', why: 'permission.attachFiles.why' },
  16: { name: 'permission.readMessageHistory.name', why: 'permission.readMessageHistory.why' },
  17: { name: 'permission.mentionEveryone.name', why: 'permission.mentionEveryone.why' },
  18: { name: 'permission.useExternalEmojis.name', why: 'permission.useExternalEmojis.why' },
  19: { name: 'permission.viewServerInsights.name', why: 'permission.notNeeded' },
  20: { name: 'permission.connect.name', why: 'permission.notNeeded' },
  21: { name: 'permission.speak.name', why: 'permission.notNeeded' },
  22: { name: 'permission.muteMembers.name', why: 'permission.notNeeded' },
  23: { name: 'permission.deafenMembers.name', why: 'permission.notNeeded' },
  24: { name: 'permission.moveMembers.name', why: 'permission.notNeeded' },
  25: { name: 'permission.useVoiceActivity.name', why: 'permission.notNeeded' },
  26: { name: 'permission.changeNickname.name', why: 'permission.notNeeded' },
  27: { name: 'permission.manageNicknames.name', why: 'permission.notNeeded' },
  28: { name: 'permission.manageRoles.name', why: 'permission.manageRoles.why' },
  29: { name: 'permission.manageWebhooks.name', why: 'permission.manageWebhooks.why' },
  30: { name: 'permission.manageExpressions.name', why: 'permission.notNeeded' },
  31: { name: 'permission.useApplicationCommands.name', why: 'permission.useApplicationCommands.why' },
  32: { name: 'permission.requestToSpeak.name', why: 'permission.notNeeded' },
  33: { name: 'permission.manageEvents.name', why: 'permission.notNeeded' },
  34: { name: 'permission.manageThreads.name', why: 'permission.manageThreads.why' },
  35: { name: 'permission.createPublicThreads.name', why: 'permission.createPublicThreads.why' },
  36: { name: 'permission.createPrivateThreads.name', why: 'permission.createPrivateThreads.why' },
  37: { name: 'permission.useExternalStickers.name', why: 'permission.notNeeded' },
  38: { name: 'permission.sendMessagesInThreads.name', why: 'permission.sendMessagesInThreads.why' },
  39: { name: 'permission.useActivities.name', why: 'permission.notNeeded' },
  40: { name: 'permission.timeoutMembers.name', why: 'permission.notNeeded' },
  41: { name: 'permission.viewCreatorMonetizationAnalytics.name', why: 'permission.notNeeded' },
  42: { name: 'permission.useSoundboard.name', why: 'permission.notNeeded' },
  43: { name: 'permission.createExpressions.name', why: 'permission.notNeeded' },
  44: { name: 'permission.createEvents.name', why: 'permission.notNeeded' },
  45: { name: 'permission.useExternalSounds.name', why: 'permission.notNeeded' },
  46: { name: 'permission.sendVoiceMessages.name', why: 'permission.notNeeded' },
  49: { name: 'permission.createPolls.name', why: 'permission.notNeeded' },
  50: { name: 'permission.useExternalApps.name', why: 'permission.notNeeded' },
};

/**
 * The permissions an authorise URL asks for (its `permissions` bit field), in bit order, named in the
 * active language (pass the page's `useT()` so it follows a change of language).
 */
export function requestedPermissions(inviteUrl: string, t: Translate<MessageKey> = translate): PermissionInfo[] {
  let raw: string | null = null;
  try {
    raw = new URL(inviteUrl).searchParams.get('permissions');
  } catch {
    return [];
  }
  if (!raw || !/^\d+$/.test(raw)) return [];
  const value = BigInt(raw);
  const out: PermissionInfo[] = [];
  for (let bit = 0; bit < 64; bit++) {
    if ((value >> BigInt(bit)) & 1n) {
      const known = KNOWN[bit];
      out.push(
        known
          ? { bit, name: t(known.name), why: t(known.why) }
          : { bit, name: t('permission.unknown.name', { bit }), why: t('permission.unknown.why') },
      );
    }
  }
  return out;
}

/** The OAuth scopes of an authorise URL. */
export function requestedScopes(inviteUrl: string): string[] {
  try {
    return (new URL(inviteUrl).searchParams.get('scope') ?? '').split(/[\s+]+/).filter(Boolean);
  } catch {
    return [];
  }
}

