// @ts-check
/**
 * The capacity model of docs/operations.md ("Capacity model") as a calculation: the measured inputs
 * (each from a bench, flags below; the defaults are the figures that section quotes) and the traffic
 * assumptions give, per number of servers, the peak request rate, the instances needed, bot events
 * per second, PostgreSQL's growth and Redis's memory. Prints a Markdown table to paste into the doc.
 *   node bench/capacity.mjs [--read-rps 31947] [--mix-cost 1.24] ... (every flag: --help)
 * Measures nothing itself; re-run the benches named beside each input and pass their figures.
 */
import { parseArgs } from 'node:util';

/** Each input: its default, and where it comes from. */
const INPUTS = {
  servers: ['1000,100000,1000000', 'numbers of servers to model'],
  // Measured (the bench that prints it).
  'read-rps': ['31947', 'api-reads.mjs: the lowest hot read as a browser gets it (PostgreSQL, 50 connections), API req/s of one instance'],
  'mix-cost': ['1.24', 'soak.mjs: a request of the page mix costs this many @me requests (mean latency ratio)'],
  'requests-per-page': ['1.40', 'soak.mjs: requests per page of the mix'],
  'ingest-eps': ['22710', 'bot-ingest.mjs: events per second one instance ingests'],
  'events-per-ticket': ['5.79', 'storage.mjs: ticket_events rows / tickets rows (the demo bot)'],
  'bytes-event': ['352', 'storage.mjs: ticket_events bytes/row'],
  'bytes-ticket': ['1357', 'storage.mjs: tickets bytes/row'],
  'bytes-transcript': ['9072', 'storage.mjs: a transcript under 1,000 messages, all in'],
  'bytes-attachments': ['2156', 'storage.mjs: transcript_attachments size / transcripts (the demo\'s files are small)'],
  'bytes-config-save': ['2580', 'storage.mjs: what one configuration save adds (a version and a web log entry)'],
  'bytes-session': ['1270', 'storage.mjs: sessions bytes/row'],
  'redis-keys-per-address': ['1', 'soak.mjs: Redis keys / client addresses'],
  'redis-bytes-per-key': ['71', 'soak.mjs: Redis bytes / keys'],
  // Assumed (docs/operations.md, "Capacity model", says why).
  'dashboard-sessions-per-server-day': ['0.5', 'dashboard sessions a day per server, all its admins together'],
  'pages-per-session': ['8', 'pages a dashboard session opens'],
  'session-minutes': ['5', 'how long a dashboard session lasts'],
  'config-saves-per-server-day': ['0.05', 'configuration saves a day per server'],
  'tickets-per-server-day': ['2', 'tickets a day per server (averaged over every server, idle ones too)'],
  'transcripts-per-ticket': ['0.5', 'transcripts stored per ticket'],
  peak: ['4', 'the busiest hour\'s rate / the day\'s mean rate'],
  headroom: ['0.5', 'share of an instance\'s measured capacity used at peak'],
};

const { values } = parseArgs({
  options: { ...Object.fromEntries(Object.entries(INPUTS).map(([name, [value]]) => [name, { type: 'string', default: value }])), help: { type: 'boolean', default: false } },
});
if (values.help) {
  for (const [name, [value, meaning]] of Object.entries(INPUTS)) console.log(`--${name.padEnd(34)} ${String(value).padEnd(20)} ${meaning}`);
  process.exit(0);
}
const input = (/** @type {string} */ name) => Number(/** @type {Record<string, unknown>} */ (values)[name]);
const DAY_S = 86_400;
const GB = 1e9;

/** @param {number} bytes */
const size = (bytes) => {
  if (bytes >= 1000 * GB) return `${(bytes / GB / 1000).toFixed(1)} TB`;
  if (bytes >= GB) return `${(bytes / GB).toFixed(1)} GB`;
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
};
/** @param {number} value */
const rate = (value) => (value >= 10 ? Math.round(value).toLocaleString('en') : value.toFixed(2));

/** @param {number} servers */
function model(servers) {
  const sessionsPerDay = servers * input('dashboard-sessions-per-server-day');
  const peakRps = (sessionsPerDay * input('pages-per-session') * input('requests-per-page') * input('peak')) / DAY_S;
  const ticketsPerDay = servers * input('tickets-per-server-day');
  const eventsPerDay = ticketsPerDay * input('events-per-ticket');
  const peakEps = (eventsPerDay * input('peak')) / DAY_S;
  // One instance's measured capacity used at peak, for the dashboard's mix and the bot's events together.
  const load = (peakRps * input('mix-cost')) / input('read-rps') + peakEps / input('ingest-eps');
  const instances = Math.max(2, Math.ceil(load / input('headroom')));
  const savesPerDay = servers * input('config-saves-per-server-day');
  const growth = {
    events: eventsPerDay * input('bytes-event'),
    tickets: ticketsPerDay * input('bytes-ticket'),
    transcripts: ticketsPerDay * input('transcripts-per-ticket') * (input('bytes-transcript') + input('bytes-attachments')),
    configs: savesPerDay * input('bytes-config-save'),
  };
  const perDay = Object.values(growth).reduce((sum, bytes) => sum + bytes, 0);
  // Sessions are deleted 30 days after they end (SESSION_MAX_AGE_SECONDS 7 days by default): at most ~37 days of them.
  const sessionsBytes = sessionsPerDay * 37 * input('bytes-session');
  const activeAtPeak = ((sessionsPerDay * input('peak')) / DAY_S) * input('session-minutes') * 60;
  const redisBytes = activeAtPeak * input('redis-keys-per-address') * input('redis-bytes-per-key');
  return { peakRps, load, instances, peakEps, growth, perDay, sessionsBytes, redisBytes, activeAtPeak };
}

const scales = String(values.servers).split(',').map(Number);
const results = scales.map(model);
const row = (/** @type {string} */ label, /** @type {(r: ReturnType<typeof model>) => string} */ cell) => `| ${label} | ${results.map(cell).join(' | ')} |`;
console.log(`| | ${scales.map((servers) => `${servers.toLocaleString('en')} servers`).join(' | ')} |`);
console.log(`|---|${scales.map(() => '---').join('|')}|`);
console.log(row('dashboard requests/s at peak', (r) => rate(r.peakRps)));
console.log(row('bot events/s at peak', (r) => rate(r.peakEps)));
console.log(row('one instance\'s measured capacity used at peak', (r) => `${(r.load * 100).toFixed(r.load < 0.1 ? 2 : 0)} %`));
console.log(row('API instances (at least 2)', (r) => String(r.instances)));
console.log(row('PostgreSQL growth a day: events + tickets', (r) => size(r.growth.events + r.growth.tickets)));
console.log(row('… transcripts and attachments', (r) => size(r.growth.transcripts)));
console.log(row('… configuration versions and logs', (r) => size(r.growth.configs)));
console.log(row('… in all, a day / a year (nothing deleted)', (r) => `${size(r.perDay)} / ${size(r.perDay * 365)}`));
console.log(row('sessions (at most ~37 days kept; a sign-in per dashboard session)', (r) => size(r.sessionsBytes)));
console.log(row('dashboard users at once at peak', (r) => rate(r.activeAtPeak)));
console.log(row('Redis (rate-limit counters)', (r) => size(r.redisBytes)));
