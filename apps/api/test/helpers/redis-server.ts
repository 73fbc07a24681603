import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer, Socket } from 'node:net';
import { Redis } from 'ioredis';

/**
 * Whether tests may start a redis-server of their own: only where a Redis is configured for tests
 * (TEST_REDIS_URL, as the shared-limit tests) and the binary is installed. A fresh machine has neither:
 * such suites are skipped.
 */
export const canRunRedisServer = Boolean(process.env.TEST_REDIS_URL) && spawnSync('redis-server', ['--version']).status === 0;

/** A free loopback port (asked of the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/**
 * A redis-server of the test's own on a loopback port (no persistence): stop it for real (SIGKILL),
 * start it again on the same port (empty), or freeze it (SIGSTOP: the connection stays open, nothing
 * answers) and thaw it. Never the shared Redis.
 */
export class OwnRedis {
  #process: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.#process) return;
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.#process = child;
    for (let i = 0; i < 100; i++) {
      if (await answersPing(this.port)) return;
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not start on port ${this.port}`);
  }

  /** Kills it (SIGKILL: a crash, not a clean shutdown) and waits until it is gone. */
  async kill(): Promise<void> {
    const child = this.#process;
    if (!child) return;
    this.#process = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGCONT');
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  /** Hangs it: connections stay open, nothing is answered. */
  freeze(): void {
    this.#process?.kill('SIGSTOP');
  }

  thaw(): void {
    this.#process?.kill('SIGCONT');
  }

  /** Sets a server setting (`CONFIG SET`), e.g. `maxmemory 1` for a Redis that answers PING but refuses writes. */
  async configSet(name: string, value: string): Promise<void> {
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await client.connect();
      await client.config('SET', name, value);
    } finally {
      client.disconnect();
    }
  }
}
