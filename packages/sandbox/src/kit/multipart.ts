/**
 * A `multipart/form-data` body split into its parts (RFC 7578): each part's field name, file name,
 * content type and bytes. Enough for the uploads stand-ins take (Discord's `payload_json` and
 * `files[n]`); null when the body is not well-formed multipart.
 */

export interface MultipartPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

/** The boundary of a `multipart/form-data` content type, or null. */
export function multipartBoundary(contentType: string): string | null {
  if (!/^multipart\/form-data\b/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function headerParam(header: string, param: string): string | null {
  const match = new RegExp(`;\\s*${param}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header) ?? new RegExp(`;\\s*${param}=([^;\\s]+)`, 'i').exec(header);
  return match ? match[1]!.replace(/\\(.)/g, '$1') : null;
}

/** The parts of `body`, at most `maxParts` (null: malformed, or more parts than that). */
export function parseMultipart(body: Buffer, boundary: string, maxParts = 32): MultipartPart[] | null {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let position = body.indexOf(delimiter);
  if (position === -1) return null;
  for (;;) {
    position += delimiter.length;
    // `--` after a delimiter ends the body.
    if (body.subarray(position, position + 2).toString('latin1') === '--') return parts;
    if (body.subarray(position, position + 2).toString('latin1') !== '\r\n') return null;
    position += 2;
    const headerEnd = body.indexOf('\r\n\r\n', position);
    if (headerEnd === -1) return null;
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next === -1) return null;
    const headers = body.subarray(position, headerEnd).toString('utf8').split('\r\n');
    const disposition = headers.find((h) => /^content-disposition:/i.test(h)) ?? '';
    const type = headers.find((h) => /^content-type:/i.test(h));
    const name = headerParam(disposition, 'name');
    if (!/^content-disposition:\s*form-data/i.test(disposition) || name === null) return null;
    parts.push({ name, filename: headerParam(disposition, 'filename'), contentType: type ? type.slice(type.indexOf(':') + 1).trim() : null, data: body.subarray(headerEnd + 4, next) });
    if (parts.length > maxParts) return null;
    position = next + 2;
  }
}
