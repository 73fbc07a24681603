/** Ticket channel naming schemes: 'ticket-{count}', '{username}-support'. */
import { discordText } from './fields';
import { CHANNEL_NAME_MAX } from './limits';

/** The variables a naming scheme may use; the bot fills them in when it opens a ticket. */
export const NAMING_SCHEME_VARIABLES = ['count', 'username', 'userid'] as const;

/** The scheme a new server starts with. */
export const DEFAULT_NAMING_SCHEME = 'ticket-{count}';

const VARIABLE = /\{([^{}]*)\}/g;
const KNOWN: ReadonlySet<string> = new Set(NAMING_SCHEME_VARIABLES);
const KNOWN_LIST = '{count}, {username} or {userid}';

/** What is wrong with a scheme's variables, as sentences (empty: nothing). Lengths are not checked here. */
export function namingSchemeProblems(scheme: string): string[] {
  const unknown = [...new Set([...scheme.matchAll(VARIABLE)].map((m) => m[0]).filter((v) => !KNOWN.has(v.slice(1, -1))))];
  const problems: string[] = [];
  if (unknown.length === 1) {
    problems.push(`Unknown variable ${unknown[0]}: use ${KNOWN_LIST}.`);
  } else if (unknown.length > 1) {
    problems.push(`Unknown variables ${unknown.join(', ')}: use ${KNOWN_LIST}.`);
  }
  if (/[{}]/.test(scheme.replace(VARIABLE, ''))) {
    problems.push(`A { or } is not closed: write variables as ${KNOWN_LIST}.`);
  }
  return problems;
}

/**
 * A channel naming scheme: 1 to 100 characters (Discord's channel-name limit, counted like Discord)
 * using only the variables `{count}`, `{username}` and `{userid}`. The bot cuts a filled-in name
 * that comes out longer than 100.
 */
export const NamingScheme = discordText(CHANNEL_NAME_MAX, { required: true }).superRefine((scheme, ctx) => {
  for (const message of namingSchemeProblems(scheme)) {
    ctx.addIssue({ code: 'custom', input: scheme, message });
  }
});
