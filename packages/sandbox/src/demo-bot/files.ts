/**
 * Files people attach in the demo's tickets, served by the sandbox CDN under `/attachments/...` with
 * signed, expiring links like Discord's, so the API copies them when a transcript is uploaded: an
 * order log (text) and a screenshot (a real PNG, drawn here: a dark window with a title bar and a
 * few rows, deterministic).
 */
import { crc32, deflateSync } from 'node:zlib';
import { signAttachment } from '../discord/attachments';

/** The channel the demo's ticket files were posted in (fixed, so their ids and links are too). */
const DEMO_FILES_CHANNEL = '1200000000000001091';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A width × height RGB PNG whose pixels `paint(x, y)` gives as [r, g, b]. */
export function png(width: number, height: number, paint: (amount: number, year: number) => readonly [number, number, number]): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [remainder, group, right] = paint(x, y);
      raw[row + 1 + x * 3] = remainder;
      raw[row + 2 + x * 3] = group;
      raw[row + 3 + x * 3] = right;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The screenshot: a game's inventory window with one empty slot highlighted. */
function screenshot(): Buffer {
  return png(480, 270, (amount, year) => {
    if (year < 28) return amount > 440 && amount < 464 && year > 8 && year < 20 ? [237, 66, 69] : [32, 34, 37];
    const col = Math.floor((amount - 24) / 72);
    const row = Math.floor((year - 48) / 72);
    const inSlot = amount >= 24 && year >= 48 && col < 6 && row < 3 && (amount - 24) % 72 < 64 && (year - 48) % 72 < 64;
    if (!inSlot) return [54, 57, 63];
    if (col === 2 && row === 1) return (amount - 24) % 72 < 3 || (amount - 24) % 72 > 60 || (year - 48) % 72 < 3 || (year - 48) % 72 > 60 ? [250, 166, 26] : [47, 49, 54];
    const hue = (col * 53 + row * 97) % 255;
    return [80 + (hue % 120), 100 + ((hue * 3) % 100), 160 - (hue % 90)];
  });
}

const ORDER_LOG = [
  '2026-11-02 18:04:11 order AA-12345 created (season pass, 1x)',
  '2026-11-02 18:04:13 payment captured',
  '2026-11-02 18:04:13 fulfilment queued',
  '2026-11-02 18:04:44 fulfilment failed: inventory service timeout',
  '2026-11-02 18:09:44 fulfilment retry 1 failed: inventory service timeout',
  '2026-11-02 18:19:44 fulfilment gave up after 2 attempts',
  '',
].join('\n');

export interface DemoFile {
  channelId: string;
  id: string;
  filename: string;
  contentType: string;
  body: Buffer;
}

/** The demo's ticket files (the sandbox CDN serves them; the demo bot links them). */
export const DEMO_TICKET_FILES: readonly DemoFile[] = [
  { channelId: DEMO_FILES_CHANNEL, id: '1900000000000002001', filename: 'order-log.txt', contentType: 'text/plain; charset=utf-8', body: Buffer.from(ORDER_LOG) },
  { channelId: DEMO_FILES_CHANNEL, id: '1900000000000002002', filename: 'inventory.png', contentType: 'image/png', body: screenshot() },
];

/** A ticket file as a message attachment, with a link signed at `issuedMs` (as Discord hands it to a bot). */
export function demoAttachment(file: DemoFile, cdnBase: string, issuedMs: number) {
  const { ex, is, hm } = signAttachment(file.channelId, file.id, file.filename, issuedMs);
  return {
    id: file.id,
    filename: file.filename,
    contentType: file.contentType.split(';')[0]!,
    size: file.body.length,
    url: `${cdnBase}/attachments/${file.channelId}/${file.id}/${encodeURIComponent(file.filename)}?ex=${ex}&is=${is}&hm=${hm}&`,
    width: file.contentType.startsWith('image/') ? 480 : null,
    height: file.contentType.startsWith('image/') ? 270 : null,
  };
}
