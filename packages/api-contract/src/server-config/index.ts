/** A server's configuration: Discord's limits, the schemas, and the messages panels post. */
export * from './limits';
// The field builders a form may reuse; the duplicate and role-list helpers stay inside.
export { COLOUR_MAX, Colour, HttpUrl, SHORT_ID_MAX, SHORT_ID_PATTERN, ShortId, URL_MAX, discordText } from './fields';
export * from './embed';
export * from './naming-scheme';
export * from './form';
export * from './support-hours';
export * from './panel';
export * from './schemas';
export * from './message';
