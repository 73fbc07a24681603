import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  /** Everything the server sent before it closed the connection (or the deadline passed). */
  text: string;
  /** Whether the server closed the connection. */
  closed: boolean;
  /** Milliseconds from connecting to the close (or the deadline). */
  ms: number;
}

/**
 * Opens a real TCP connection to the listening app, lets `act` write to it, and reads until the
 * server closes it, the deadline passes, or `enough` says the answer is whole.
 */
export function rawExchange(port: number, act: (socket: Socket) => void, deadlineMs: number, enough?: (text: string) => boolean): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), deadlineMs);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (enough?.(text)) finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('connect', () => act(socket));
  });
}

/** The JSON body of a raw HTTP answer. */
export function bodyOf(text: string): unknown {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

/** Makes the app listen on a free loopback port; its port. */
export async function listen(app: { listen(options: { port: number; host: string }): Promise<string>; server: { address(): unknown } }): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}
