import { z } from './zod-setup';

/**
 * The error-code catalogue. Every error the API answers has the body `ApiError` with one of these
 * `code`s and the given HTTP status. 403 and 405 are the server-access codes of docs/behaviour.md#request-overlay-and-error-catalogue: the
 * front end shows "You don't have access to this server." for them. Messages are the defaults; a
 * route may give a more precise one (always safe to show).
 */
export const ERROR_CODES = {
  UNAUTHENTICATED: {
    code: 401,
    httpStatus: 401,
    message: 'You need to log in with Discord to do this.',
  },
  NO_SERVER_ACCESS: {
    code: 403,
    httpStatus: 403,
    message:
      "Only this server's owner, members with the Administrator or Manage Server permission and members of roles the server gives dashboard access can open it here. If your roles changed recently, refresh your server list.",
  },
  SERVER_NOT_FOUND: {
    code: 405,
    httpStatus: 404,
    message:
      "This server is not one of your servers: you are not a member of it, or your server list is out of date (refresh it and try again).",
  },
  VALIDATION_FAILED: { code: 1001, httpStatus: 400, message: 'The request is not valid.' },
  NOT_FOUND: { code: 1002, httpStatus: 404, message: 'There is nothing at this address.' },
  RATE_LIMITED: { code: 1003, httpStatus: 429, message: 'Too many requests: wait a moment and try again.' },
  STAFF_PERMISSION_REQUIRED: {
    code: 1004,
    httpStatus: 403,
    message: 'This needs a Tickety staff permission that your account does not have.',
  },
  CSRF_REJECTED: {
    code: 1005,
    httpStatus: 403,
    message: 'The request was refused because it did not come from the Tickety dashboard.',
  },
  OAUTH_STATE_INVALID: {
    code: 1006,
    httpStatus: 400,
    message: 'This sign-in link has expired or was already used. Close this window and log in again.',
  },
  OAUTH_FAILED: {
    code: 1007,
    httpStatus: 502,
    message: 'Discord did not accept the sign-in. Close this window and log in again.',
  },
  DISCORD_UNAVAILABLE: {
    code: 1008,
    httpStatus: 503,
    message: 'Discord is not answering right now; your saved data is unchanged. Try again shortly.',
  },
  DATABASE_UNAVAILABLE: {
    code: 1009,
    httpStatus: 503,
    message: 'The service is temporarily unavailable (database). Try again shortly.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    code: 1010,
    httpStatus: 415,
    message: 'The request body must be JSON (content-type: application/json).',
  },
  OVERLOADED: {
    code: 1011,
    httpStatus: 503,
    message: 'The service is busy right now. Try again in a few seconds.',
  },
  REQUEST_TIMEOUT: {
    code: 1012,
    httpStatus: 408,
    message: 'The request took too long to arrive. Try again.',
  },
  CONFIG_CONFLICT: {
    code: 1013,
    httpStatus: 409,
    message: 'Someone saved this configuration while you were editing it. Your changes were not saved: reload to see theirs, then make yours again.',
  },
  DISCORD_REFUSED: {
    code: 1014,
    httpStatus: 422,
    message: 'Discord refused what the bot tried to do. Check the bot’s permissions in that channel, then try again.',
  },
  CONFIG_FILE_REJECTED: {
    code: 1015,
    httpStatus: 422,
    message: 'This configuration file cannot be imported: it is damaged, was changed after export, or was not made by Tickety.',
  },
  PAYLOAD_TOO_LARGE: {
    code: 1016,
    httpStatus: 413,
    message: 'What you sent is too large.',
  },
  AREA_ACCESS_REQUIRED: {
    code: 1017,
    httpStatus: 403,
    message: 'Your roles do not give you access to this part of the server’s dashboard. Ask the server’s owner or an administrator to grant it.',
  },
  BOT_KEY_INVALID: {
    code: 1018,
    httpStatus: 401,
    message: 'The bot key is missing, wrong, expired or revoked. Send it as "Authorization: Bearer <key>".',
  },
  TRANSCRIPT_CONFLICT: {
    code: 1019,
    httpStatus: 409,
    message: 'Another bot stored a transcript with this id in this server: choose another id.',
  },
  BOT_SERVER_FORBIDDEN: {
    code: 1020,
    httpStatus: 403,
    message: 'This bot does not serve this server: a bot key acts only on the servers of its own bot application.',
  },
  BOT_KEY_SUPERSEDED: {
    code: 1021,
    httpStatus: 409,
    message: 'This key has already been replaced: rotate with the newest key.',
  },
  WEBHOOK_REJECTED: {
    code: 1022,
    httpStatus: 401,
    message: 'The webhook could not be verified: its signature or credentials are missing or wrong, or it is too old.',
  },
  PREMIUM_SLOT_COOLDOWN: {
    code: 1023,
    httpStatus: 409,
    message: 'This premium slot moved recently: it can move again when its cooldown ends.',
  },
  PROVIDER_UNAVAILABLE: {
    code: 1024,
    httpStatus: 502,
    message: 'The payment provider did not answer: nothing was changed. Try again in a moment.',
  },
  PREMIUM_ALREADY_COVERED: {
    code: 1025,
    httpStatus: 409,
    message: 'One of your premium slots already covers this server.',
  },
  STAFF_GRANT_FORBIDDEN: {
    code: 1026,
    httpStatus: 403,
    message: 'You can grant or revoke only staff flags that you hold yourself: nothing was changed.',
  },
  STAFF_SELF_EDIT: {
    code: 1027,
    httpStatus: 403,
    message: 'Nobody changes their own staff flags: ask another team manager. Nothing was changed.',
  },
  STAFF_OWNER_LOCKED: {
    code: 1028,
    httpStatus: 403,
    message: 'Owners (STAFF_OWNER_IDS) hold every staff flag and cannot be edited or removed here: nothing was changed.',
  },
  STAFF_MANAGER_OWNER_ONLY: {
    code: 1029,
    httpStatus: 403,
    message: 'Only an owner (STAFF_OWNER_IDS) grants or revokes SPECIAL_TEAM_MANAGER_WRITE, or removes a member who holds it: nothing was changed.',
  },
  STAFF_SIGN_IN_AGAIN: {
    code: 1030,
    httpStatus: 401,
    message: 'Staff pages need a recent sign-in: log in with Discord again (after 30 minutes without staff activity, or 12 hours after signing in).',
  },
  STORAGE_UNAVAILABLE: {
    code: 1031,
    httpStatus: 503,
    message: 'Transcript storage is not answering right now: nothing was changed. Try again shortly.',
  },
  BOT_COMMAND_CLOSED: {
    code: 1032,
    httpStatus: 409,
    message: 'This command is not waiting for a report: its outcome was already reported, or no bot took it. Nothing was changed.',
  },
  TICKET_CLOSED: {
    code: 1033,
    httpStatus: 409,
    message: 'This ticket is closed: nothing was sent to it. Its transcript is in Transcripts once the bot has stored it.',
  },
  INTERNAL: { code: 1500, httpStatus: 500, message: 'Something went wrong on our side. Try again shortly.' },
} as const satisfies Record<string, { code: number; httpStatus: number; message: string }>;

export type ErrorCodeName = keyof typeof ERROR_CODES;

/** Server-access codes (docs/behaviour.md#request-overlay-and-error-catalogue): the "You don't have access to this server." screen. */
export const SERVER_ACCESS_CODES: readonly number[] = [ERROR_CODES.NO_SERVER_ACCESS.code, ERROR_CODES.SERVER_NOT_FOUND.code];

/** Finds a catalogue entry by its numeric code. */
export function errorByCode(code: number): (typeof ERROR_CODES)[ErrorCodeName] | undefined {
  return Object.values(ERROR_CODES).find((e) => e.code === code);
}

/** Every error body. `selector` is set when choosing another server is a sensible way out. */
export const ApiError = z.object({
  code: z.number().int(),
  message: z.string(),
  isAuthenticated: z.boolean(),
  selector: z.boolean().optional(),
});
export type ApiError = z.infer<typeof ApiError>;
