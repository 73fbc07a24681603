/** A parsed `application/x-www-form-urlencoded` body (kept exact: repeated parameters stay visible). */
export class FormBody {
  constructor(readonly params: URLSearchParams) {}

  get(name: string): string | undefined {
    return this.params.get(name) ?? undefined;
  }

  /** The first parameter that appears more than once (RFC 6749 §3.1: must not be repeated), or null. */
  repeated(): string | null {
    const seen = new Set<string>();
    for (const name of this.params.keys()) {
      if (seen.has(name)) return name;
      seen.add(name);
    }
    return null;
  }
}

/** Any other body (JSON to the token endpoint, text, multipart): kept raw so routes answer like Discord. */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly bytes: Buffer,
  ) {}
}
