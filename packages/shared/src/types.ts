/**
 * The API's answer types, from `@tickety/api-contract` (the one definition shared with the API).
 * Type-only: the shared singleton never loads zod at run time.
 */
export type {
  AccessArea,
  AccessLevel,
  ApiError,
  Guild,
  GuildWithAccess,
  MeResponse,
  RuntimeConfig,
  ServerAccess,
  StaffInfo,
  StaffPermission,
  SubscriptionSummary,
  User,
} from '@tickety/api-contract';
