import { type IncomingMessage, request } from 'node:http';

export interface SseFrame {
  id: string | null;
  event: string;
  data: unknown;
}

/** An open Server-Sent Events answer, read as it comes: its status, headers and frames so far. */
export interface SseStream {
  status: number;
  headers: IncomingMessage['headers'];
  frames: SseFrame[];
  /** Comments (heartbeats) seen. */
  comments: number;
  ended: boolean;
  /** Resolves with the first frame (from `from` on) that `match` accepts; rejects after `ms`. */
  next(match: (frame: SseFrame) => boolean, ms?: number, from?: number): Promise<SseFrame>;
  close(): void;
}

/** Opens `path` on the listening app as a browser's EventSource would (cookies and headers given). */
export function openSse(port: number, path: string, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path, headers: { accept: 'text/event-stream', ...headers } });
    req.on('error', reject);
    req.on('response', (res) => {
      const waiters = new Set<() => void>();
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        frames: [],
        comments: 0,
        ended: false,
        next(match, ms = 5_000, from = 0) {
          return new Promise((done, fail) => {
            const check = () => {
              const found = stream.frames.slice(from).find(match);
              if (found) {
                waiters.delete(check);
                clearTimeout(timer);
                done(found);
              } else if (stream.ended) {
                waiters.delete(check);
                clearTimeout(timer);
                fail(new Error(`the stream ended without the frame (frames: ${stream.frames.map((f) => f.event).join(', ')})`));
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no such frame within ${ms} ms (frames: ${stream.frames.map((f) => `${f.event}#${f.id}`).join(', ')})`));
            }, ms);
            waiters.add(check);
            check();
          });
        },
        close() {
          req.destroy();
        },
      };
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = { id: null as string | null, event: 'message', data: '' };
          let comment = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comment = true;
            else if (line.startsWith('id: ')) fields.id = line.slice(4);
            else if (line.startsWith('event: ')) fields.event = line.slice(7);
            else if (line.startsWith('data: ')) fields.data += line.slice(6);
          }
          if (fields.data) stream.frames.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
          else if (comment) stream.comments += 1;
        }
        for (const waiter of [...waiters]) waiter();
      });
      const ended = () => {
        stream.ended = true;
        for (const waiter of [...waiters]) waiter();
      };
      res.on('end', ended);
      res.on('close', ended);
      resolve(stream);
    });
    req.end();
  });
}
