/** A server's configuration: Discord's limits, the schemas, and the messages panels post. */

export * from './automation';
export * from './embed';
// The field builders a form may reuse; the duplicate and role-list helpers stay inside.
export { COLOUR_MAX, Colour, discordText, HttpUrl, SHORT_ID_MAX, SHORT_ID_PATTERN, ShortId, URL_MAX } from './fields';
export * from './form';
export * from './labels';
export * from './limits';
export * from './message';
export * from './naming-scheme';
export * from './panel';
export * from './schemas';
export * from './support-hours';
