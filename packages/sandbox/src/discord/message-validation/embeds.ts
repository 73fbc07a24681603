import { type Checker, charCount, type EmbedOut, type EmojiOut, MESSAGE_LIMITS, type Path, present, shown } from './model';

/** Characters an embed counts towards the 6,000 of a message. */
export function embedSize(embedOut: EmbedOut): number {
  let count = charCount(embedOut.title ?? '') + charCount(embedOut.description ?? '') + charCount(embedOut.footer?.text ?? '') + charCount(embedOut.author?.name ?? '');
  for (const file of embedOut.fields ?? []) count += charCount(file.name) + charCount(file.value);
  return count;
}

/** Discord's timestamp (ISO 8601) for an embed's `timestamp`, or undefined when it cannot be read. */
export function embedTimestamp(checker: Checker, value: unknown, path: Path): string | undefined {
  if (!present(value)) return undefined;
  const session = checker.string(value, path);
  if (session === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(session) ? Date.parse(session) : Number.NaN;
  if (!Number.isFinite(ms)) {
    checker.errors.add(path, 'DATE_TYPE_CONVERT', `Could not parse ${shown(value)}. Should be ISO8601.`);
    return undefined;
  }
  return new Date(ms).toISOString().replace(/Z$/, '000+00:00');
}

export function embedOf(checker: Checker, raw: unknown, path: Path): EmbedOut | undefined {
  const entry = checker.object(raw, path);
  if (!entry) {
    if (!present(raw)) checker.errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return undefined;
  }
  const out: EmbedOut = { type: 'rich' };
  if (present(entry.type)) {
    const type = checker.string(entry.type, [...path, 'type']);
    if (type !== undefined) out.type = type;
  }
  const title = checker.text(entry.title, [...path, 'title'], MESSAGE_LIMITS.embedTitle);
  if (title !== undefined) out.title = title;
  const description = checker.text(entry.description, [...path, 'description'], MESSAGE_LIMITS.embedDescription);
  if (description !== undefined) out.description = description;
  const url = checker.url(entry.url, [...path, 'url']);
  if (url !== undefined) out.url = url;
  const timestamp = embedTimestamp(checker, entry.timestamp, [...path, 'timestamp']);
  if (timestamp !== undefined) out.timestamp = timestamp;
  const color = checker.integer(entry.color, [...path, 'color'], 0, 0xffffff);
  if (color !== undefined) out.color = color;

  const footer = checker.object(entry.footer, [...path, 'footer']);
  if (footer) {
    const text = checker.text(footer.text, [...path, 'footer', 'text'], MESSAGE_LIMITS.footerText, true);
    const icon = checker.url(footer.icon_url, [...path, 'footer', 'icon_url'], ['http:', 'https:', 'attachment:']);
    if (text !== undefined) out.footer = { text, ...(icon !== undefined ? { icon_url: icon } : {}) };
  }
  for (const key of ['image', 'thumbnail'] as const) {
    const media = checker.object(entry[key], [...path, key]);
    if (media) {
      if (!present(media.url)) checker.errors.add([...path, key, 'url'], 'BASE_TYPE_REQUIRED', 'This field is required');
      const mediaUrl = checker.url(media.url, [...path, key, 'url'], ['http:', 'https:', 'attachment:']);
      if (mediaUrl !== undefined) out[key] = { url: mediaUrl };
    }
  }
  const author = checker.object(entry.author, [...path, 'author']);
  if (author) {
    const name = checker.text(author.name, [...path, 'author', 'name'], MESSAGE_LIMITS.authorName, true);
    const authorUrl = checker.url(author.url, [...path, 'author', 'url']);
    const icon = checker.url(author.icon_url, [...path, 'author', 'icon_url'], ['http:', 'https:', 'attachment:']);
    if (name !== undefined) {
      out.author = { name, ...(authorUrl !== undefined ? { url: authorUrl } : {}), ...(icon !== undefined ? { icon_url: icon } : {}) };
    }
  }
  const fields = checker.list(entry.fields, [...path, 'fields']);
  if (fields) {
    if (fields.length > MESSAGE_LIMITS.embedFields) {
      checker.errors.add([...path, 'fields'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.embedFields} or fewer in length.`);
    } else {
      out.fields = [];
      fields.forEach((raw, index) => {
        const fieldPath = [...path, 'fields', index];
        const file = checker.object(raw, fieldPath);
        if (!file) return;
        const name = checker.text(file.name, [...fieldPath, 'name'], MESSAGE_LIMITS.fieldName, true);
        const value = checker.text(file.value, [...fieldPath, 'value'], MESSAGE_LIMITS.fieldValue, true);
        const inline = checker.boolean(file.inline, [...fieldPath, 'inline']);
        if (name !== undefined && value !== undefined) out.fields!.push({ name, value, inline: inline ?? false });
      });
    }
  }
  return out;
}

export function emojiOf(checker: Checker, raw: unknown, path: Path): EmojiOut | undefined {
  const entry = checker.object(raw, path);
  if (!entry) return undefined;
  const id = checker.snowflake(entry.id, [...path, 'id']);
  const name = present(entry.name) ? checker.text(entry.name, [...path, 'name'], 32) : undefined;
  const animated = checker.boolean(entry.animated, [...path, 'animated']);
  if (id === undefined && name === undefined) {
    checker.errors.add(path, 'COMPONENT_INVALID_EMOJI', 'Invalid emoji');
    return undefined;
  }
  return { id: id ?? null, name: name ?? null, ...(animated !== undefined ? { animated } : {}) };
}

export function embedsOf(checker: Checker, raw: unknown): EmbedOut[] | undefined {
  const list = checker.list(raw, ['embeds']);
  if (!list) return undefined;
  if (list.length > MESSAGE_LIMITS.embeds) {
    checker.errors.add(['embeds'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.embeds} or fewer in length.`);
    return undefined;
  }
  const out: EmbedOut[] = [];
  list.forEach((entry, index) => {
    const embed = embedOf(checker, entry, ['embeds', index]);
    if (embed) out.push(embed);
  });
  if (out.reduce((n, e) => n + embedSize(e), 0) > MESSAGE_LIMITS.embedTotal) {
    checker.errors.add(['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', `Embed size exceeds maximum size of ${MESSAGE_LIMITS.embedTotal}`);
  }
  return out;
}
