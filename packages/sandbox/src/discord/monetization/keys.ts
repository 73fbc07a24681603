import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/** PKCS#8 DER header of an Ed25519 private key: the 32-byte seed follows. */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
/** SPKI DER header of an Ed25519 public key: the 32-byte key follows. */
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

export interface DiscordKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public key as Discord shows it ("Public Key" of the app): 64 lowercase hex characters. */
  publicKeyHex: string;
}

function seedBytes(seedHex: string, where: string): Buffer {
  if (typeof seedHex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(seedHex)) {
    throw new RangeError(`${where}: the private key seed must be 32 bytes as 64 hex characters`);
  }
  return Buffer.from(seedHex, 'hex');
}

/** The Ed25519 key pair of a 32-byte seed (hex), as Ed25519 derives it. */
export function discordKeyPair(seedHex: string): DiscordKeyPair {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seedBytes(seedHex, 'discordKeyPair')]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return { privateKey, publicKey, publicKeyHex: der.subarray(SPKI_ED25519.length).toString('hex') };
}

/** The app's "Public Key" (64 hex characters) for a seed. */
export function discordPublicKeyHex(seedHex: string): string {
  return discordKeyPair(seedHex).publicKeyHex;
}

function messageOf(raw: string | Uint8Array, timestamp: string | number): Buffer {
  return Buffer.concat([Buffer.from(String(timestamp), 'utf8'), typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw)]);
}

/**
 * The `X-Signature-Ed25519` value Discord sends: hex Ed25519 signature over the `X-Signature-Timestamp`
 * string immediately followed by the raw body bytes. `privateKey`: a KeyObject or the 32-byte seed in hex.
 */
export function signDiscordEvent(raw: string | Uint8Array, timestamp: string | number, privateKey: KeyObject | string): string {
  const key = typeof privateKey === 'string' ? discordKeyPair(privateKey).privateKey : privateKey;
  return sign(null, messageOf(raw, timestamp), key).toString('hex');
}

/**
 * What an endpoint must do with a webhook event (and what the API does): true when `signatureHex` is a
 * valid Ed25519 signature of timestamp + raw body by `publicKeyHex` (64 hex characters).
 */
export function verifyDiscordEvent(raw: string | Uint8Array, timestamp: string, signatureHex: string, publicKeyHex: string): boolean {
  if (!/^[0-9a-fA-F]{128}$/.test(signatureHex) || !/^[0-9a-fA-F]{64}$/.test(publicKeyHex)) return false;
  const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519, Buffer.from(publicKeyHex, 'hex')]), format: 'der', type: 'spki' });
  return verify(null, messageOf(raw, timestamp), key, Buffer.from(signatureHex, 'hex'));
}
