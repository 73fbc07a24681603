import { createHash, randomBytes } from 'node:crypto';

/** Crockford's base32 alphabet, lowercased like Paddle's ids. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out.padEnd(length, '0');
}

const RANDOM_BITS = 80n;
/** Random parts are below this (the 80 bits of 16 base32 characters). */
export const ID_RANDOM_LIMIT = 1n << RANDOM_BITS;
/** The largest time (ms) 10 base32 characters hold. */
export const MAX_ID_TIME = 32 ** 10 - 1;

/** Where an id sequence stands: the time and random parts of the last id it made (random as a decimal string). */
export interface IdSequenceState {
  time: number;
  random: string;
}

function freshRandom(): bigint {
  return BigInt(`0x${randomBytes(10).toString('hex')}`) >> 1n;
}

function encode(prefix: string, time: number, random: bigint): string {
  let head = '';
  let rest = time;
  for (let i = 0; i < 10; i++) {
    head = ALPHABET[rest % 32] + head;
    rest = Math.floor(rest / 32);
  }
  let tail = '';
  let bits = random;
  for (let i = 0; i < 16; i++) {
    tail = ALPHABET[Number(bits & 31n)] + tail;
    bits >>= 5n;
  }
  return `${prefix}_${head}${tail}`;
}

/** The time and random parts of an id made by an IdSequence, or null when it is not one. */
export function idParts(id: string): { time: number; random: bigint } | null {
  const match = /^[a-z]+_([0-9a-hjkmnp-tv-z]{26})$/.exec(id);
  if (!match) return null;
  let time = 0;
  let random = 0n;
  for (const [count, ch] of [...match[1]!].entries()) {
    const value = ALPHABET.indexOf(ch);
    if (count < 10) time = time * 32 + value;
    else random = random * 32n + BigInt(value);
  }
  return { time, random };
}

/**
 * Paddle-style ids, strictly increasing within the sequence: `<prefix>_` and 26 lowercase ULID characters
 * (10 of time, 16 random), e.g. `sub_01hv8y5ehszzq0yv20ttx3166y`. An id made in the same millisecond
 * as the last one (or earlier, when the clock went back or the sequence was raised past it) keeps the
 * last one's time and increments its random part, so ids sort in the order they were made (the API
 * lists by id) and never repeat one the sequence made or was raised to.
 */
export class IdSequence {
  #time = -1;
  #random = 0n;

  next(prefix: string, nowMs: number): string {
    const time = Math.min(MAX_ID_TIME, Math.max(0, Math.floor(nowMs)));
    if (time > this.#time) {
      this.#time = time;
      this.#random = freshRandom();
    } else if (this.#random + 1n < ID_RANDOM_LIMIT) {
      this.#random += 1n;
    } else {
      this.#time = Math.min(MAX_ID_TIME, this.#time + 1);
      this.#random = freshRandom();
    }
    return encode(prefix, this.#time, this.#random);
  }

  state(): IdSequenceState {
    return { time: this.#time, random: this.#random.toString() };
  }

  /** Moves the sequence past `state` (nothing when it is already there): later ids sort after it. */
  raise(state: { time: number; random: bigint }): void {
    if (state.time > this.#time || (state.time === this.#time && state.random > this.#random)) {
      this.#time = state.time;
      this.#random = state.random;
    }
  }

  /** Moves the sequence past an id it (or another sequence) made; ids of another shape are ignored. */
  raiseToId(id: string): void {
    const parts = idParts(id);
    if (parts) this.raise(parts);
  }

  /** Starts over (the next id takes a fresh random part). */
  reset(): void {
    this.#time = -1;
    this.#random = 0n;
  }
}

/** A stable id derived from a name (the products of the configured prices). */
export function derivedId(prefix: string, name: string): string {
  return `${prefix}_01${base32(createHash('sha256').update(name).digest(), 24)}`;
}

/** Epoch microseconds as Paddle writes times: ISO 8601 UTC with six fraction digits. */
export function isoMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const rest = String(Math.floor(micros - ms * 1000)).padStart(3, '0');
  return `${new Date(ms).toISOString().slice(0, -1)}${rest}Z`;
}

/** Epoch microseconds of a time written by isoMicros/isoMs (or any `…THH:MM:SS[.f{1,6}]Z`), or NaN. */
export function microsOf(iso: string): number {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/.exec(iso);
  if (!match) return Number.NaN;
  const ms = Date.parse(`${match[1]}Z`);
  return ms * 1000 + Number((match[2] ?? '').padEnd(6, '0'));
}

/** Epoch ms as Paddle writes times (`.sss000Z`). */
export function isoMs(ms: number): string {
  return isoMicros(Math.floor(ms) * 1000);
}

