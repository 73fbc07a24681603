import { DEMO_USERS } from '@tickety/sandbox';
import type { AppConfig } from '../src/config';

/**
 * What `npm start` prints for the person reading it (the all-in-one launcher only; dist/server.js
 * always writes pino's JSON lines). In a terminal: a banner once the server listens, then warnings
 * and errors, one readable line each. Our own formatter (below, about 60 lines) rather than
 * pino-pretty: that one brings a dozen packages and a worker thread (a pino transport) for what is
 * one JSON.parse and a template per line, and its output would still need the same field choices.
 */

/** LOG_FORMAT: `json` (pino's lines), `text` (readable lines); unset: `text` in a terminal, else `json`. */
export type LogFormat = 'json' | 'text';

/** How the launcher logs: the format, and the level when LOG_LEVEL does not say (`warn` in text: no line per request). */
export interface LogChoice {
  format: LogFormat;
  level: string | undefined;
  color: boolean;
}

interface Env {
  LOG_FORMAT?: string | undefined;
  LOG_LEVEL?: string | undefined;
  NO_COLOR?: string | undefined;
}

export function chooseLogging(env: Env, stdoutIsTTY: boolean): LogChoice {
  const asked = env.LOG_FORMAT?.trim().toLowerCase() || undefined;
  if (asked !== undefined && asked !== 'json' && asked !== 'text') throw new Error(`LOG_FORMAT: must be json or text (got "${env.LOG_FORMAT}")`);
  const format: LogFormat = asked ?? (stdoutIsTTY ? 'text' : 'json');
  const level = env.LOG_LEVEL?.trim() || (format === 'text' ? 'warn' : undefined);
  return { format, level, color: format === 'text' && stdoutIsTTY && !env.NO_COLOR };
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLORS: Record<number, string> = { 10: '90', 20: '90', 30: '36', 40: '33', 50: '31', 60: '41;97' };
/** Fields a readable line shows in its own place, or not at all. */
const PLACED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'route', 'req', 'res', 'err', 'responseTime']);

const paint = (color: boolean, code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
const clock = (time: unknown) => new Date(typeof time === 'number' ? time : Date.now()).toTimeString().slice(0, 8);
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ⏎ ');

/** An error as one line: type, message, code and where it was thrown (the stack's first frame). */
function errorText(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const { type, message, code, stack } = err as { type?: string; message?: string; code?: string | number; stack?: string };
  const frame = stack?.split('\n').find((line) => line.trimStart().startsWith('at '));
  return `${type ?? 'Error'}: ${message ?? ''}${code === undefined ? '' : ` [${code}]`}${frame ? ` (${frame.trim()})` : ''}`;
}

/** One pino JSON line as a readable line: time, level, message, request id and route, error, other fields. */
export function formatLogLine(line: string, color: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const parts = [paint(color, '90', clock(entry.time)), paint(color, LEVEL_COLORS[level] ?? '0', (LEVELS[level] ?? String(level)).padEnd(5)), oneLine(String(entry.msg ?? ''))];
  const req = entry.req as { method?: string; url?: string } | undefined;
  const route = typeof entry.route === 'string' ? entry.route : req?.method ? `${req.method} ${req.url}` : undefined;
  if (entry.reqId !== undefined || route) parts.push(paint(color, '90', `[${[entry.reqId, route].filter(Boolean).join(' ')}]`));
  const res = entry.res as { statusCode?: number } | undefined;
  if (res?.statusCode) parts.push(`→ ${res.statusCode}${typeof entry.responseTime === 'number' ? ` ${Math.round(entry.responseTime)} ms` : ''}`);
  if (entry.err !== undefined) parts.push(oneLine(errorText(entry.err)));
  const rest = Object.entries(entry).filter(([key]) => !PLACED.has(key));
  if (rest.length > 0) parts.push(paint(color, '90', rest.map(([key, value]) => `${key}=${oneLine(typeof value === 'string' ? value : JSON.stringify(value))}`).join(' ')));
  return `${parts.join(' ')}\n`;
}

/** The pino stream of the text format: each line written readable to `out`. */
function textLogStream(out: { write(text: string): unknown }, color: boolean): { write(line: string): void } {
  return { write: (line) => void out.write(formatLogLine(line, color)) };
}

/** What buildApp gets: in text, the readable stream (and each request's route on its lines); in JSON, nothing (pino on stdout). */
export function launcherLogOptions(choice: LogChoice, out: { write(text: string): unknown }): { logStream?: { write(line: string): void }; logRequestRoute?: boolean } {
  return choice.format === 'text' ? { logStream: textLogStream(out, choice.color), logRequestRoute: true } : {};
}

/** The environment the configuration is read from: LOG_LEVEL as chosen (`warn` in text unless set). */
export function launcherEnv<E extends object>(env: E, choice: LogChoice): E {
  return choice.level ? { ...env, LOG_LEVEL: choice.level } : env;
}

/** What the person who ran `npm start` needs once it listens: where, as whom, where the data is, how to stop. */
export function startBanner(config: AppConfig, choice: LogChoice): string {
  const bold = (text: string) => paint(choice.color, '1', text);
  const lines = ['', `  ${bold('Tickety is ready')} on ${paint(choice.color, '4', config.publicUrl)}${config.demo ? ' (demo mode: Discord is the local sandbox)' : ''}`, ''];
  if (config.demo) {
    lines.push(`  Click ${bold('Login')} and pick a demo user:`);
    const users = Object.values(DEMO_USERS);
    const width = Math.max(...users.map((user) => user.globalName.length));
    for (const user of users) lines.push(`    ${bold(user.globalName.padEnd(width))}  ${user.blurb}`);
    lines.push('');
  }
  const database = config.database.url ? 'PostgreSQL (DATABASE_URL)' : config.database.dataDir.startsWith('memory://') ? 'in memory (gone when it stops)' : config.database.dataDir;
  lines.push(`  Data:  ${database} (database)`, `         ${config.staticRoot} (the deployed site)`);
  lines.push(`  Stop:  Ctrl+C`, '');
  lines.push(paint(choice.color, '90', `  Logs below: ${config.logLevel} and above, one line each. LOG_LEVEL=info shows every request; LOG_FORMAT=json gives JSON lines.`), '');
  return `${lines.join('\n')}\n`;
}
