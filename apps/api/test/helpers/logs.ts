/** Captures the API's log lines (pino JSON, one per write) so tests can read and scan them. */
export class LogCapture {
  readonly lines: string[] = [];

  write(line: string): void {
    this.lines.push(line);
  }

  /** Everything logged so far, as one string (for scanning for secrets). */
  text(): string {
    return this.lines.join('');
  }

  /** The parsed entries (lines that are not JSON are skipped). */
  entries(): Array<Record<string, unknown>> {
    const out: Array<Record<string, unknown>> = [];
    for (const line of this.lines) {
      try {
        out.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not JSON: ignore
      }
    }
    return out;
  }

  /** Entries whose `msg` matches. */
  messages(match: string | RegExp): Array<Record<string, unknown>> {
    return this.entries().filter((entry) => {
      const msg = typeof entry.msg === 'string' ? entry.msg : '';
      return typeof match === 'string' ? msg === match : match.test(msg);
    });
  }

  clear(): void {
    this.lines.length = 0;
  }
}
