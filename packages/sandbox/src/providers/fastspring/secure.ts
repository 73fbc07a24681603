import { constants, createCipheriv, createDecipheriv, createPrivateKey, createPublicKey, type KeyObject, privateEncrypt, publicDecrypt, randomBytes } from 'node:crypto';
import { CheckoutProblem, MAX_TAGS_JSON } from './engine';

/**
 * FastSpring's secure payloads (Store Builder Library `fastspring.builder.secure(securePayload,
 * secureKey)`): the store's server encrypts the session object (JSON) with AES-128-ECB under a random
 * 16-byte key (`securePayload`, base64) and encrypts that key with its RSA private key, PKCS#1 v1.5
 * padding (`secureKey`, base64); FastSpring decrypts the key with the public key the store uploaded,
 * then the payload. A payload that was changed, or made with another key, does not decrypt: the
 * checkout refuses it.
 */

/** What a session object of a secure payload may hold here (FastSpring accepts more; the stand-in refuses what it does not do). */
export interface SecureSession {
  reset: boolean;
  products: Array<{ path: string; quantity: number }> | null;
  tags: Record<string, unknown>;
  email: string | null;
}

const KNOWN = new Set(['reset', 'products', 'tags', 'contact', 'paymentContact', 'checkout', 'language', 'country']);

/** The public key of a store (PEM, SPKI or a certificate's key), for `fastspringSandbox`'s `securePayloadPublicKey`. */
export function securePayloadPublicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'rsa') throw new RangeError('fastspringSandbox: securePayloadPublicKey must be an RSA public key (PEM)');
  return key;
}

/**
 * Encrypts a session object as a store's server does (what the API does; the stand-in's tests use it
 * too). `privateKeyPem`: the store's RSA private key.
 */
export function encryptSecurePayload(session: unknown, privateKeyPem: string | KeyObject): { securePayload: string; secureKey: string } {
  const aesKey = randomBytes(16);
  const cipher = createCipheriv('aes-128-ecb', aesKey, null);
  const securePayload = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]).toString('base64');
  const key = typeof privateKeyPem === 'string' ? createPrivateKey(privateKeyPem) : privateKeyPem;
  const secureKey = privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, aesKey).toString('base64');
  return { securePayload, secureKey };
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Decrypts and reads a secure payload with the store's public key; a CheckoutProblem says why it cannot be used. */
export function openSecurePayload(publicKey: KeyObject | null, securePayload: string, secureKey: string): SecureSession {
  if (!publicKey) throw new CheckoutProblem('This store has no public key for secure payloads: upload one (the securePayloadPublicKey option) before passing fastspring.builder.secure().');
  if (!BASE64.test(securePayload) || !BASE64.test(secureKey) || securePayload.length > 4 * MAX_TAGS_JSON) throw new CheckoutProblem('The secure payload and its key must be base64 strings, as fastspring.builder.secure(securePayload, secureKey) takes them.');
  let json: string;
  try {
    const aesKey = publicDecrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(secureKey, 'base64'));
    if (aesKey.length !== 16) throw new Error('not a 16-byte AES key');
    const decipher = createDecipheriv('aes-128-ecb', aesKey, null);
    json = Buffer.concat([decipher.update(Buffer.from(securePayload, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new CheckoutProblem("The secure payload could not be decrypted with this store's public key: it was changed, or made with another private key.");
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new CheckoutProblem('The secure payload is not a JSON session object.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CheckoutProblem('The secure payload is not a JSON session object.');
  const session = value as Record<string, unknown>;
  for (const key of Object.keys(session)) if (!KNOWN.has(key)) throw new CheckoutProblem(`The secure payload's "${key}" is not supported by this sandbox (${[...KNOWN].join(', ')}).`);
  if (session.reset !== undefined && typeof session.reset !== 'boolean') throw new CheckoutProblem('The secure payload\'s "reset" must be true or false.');
  let products: SecureSession['products'] = null;
  if (session.products !== undefined) {
    if (!Array.isArray(session.products)) throw new CheckoutProblem('The secure payload\'s "products" must be an array of { path, quantity }.');
    products = session.products.map((page) => {
      const item = page as { path?: unknown; quantity?: unknown } | null;
      if (!item || typeof item !== 'object' || typeof item.path !== 'string') throw new CheckoutProblem('Every product of the secure payload needs a path.');
      return { path: item.path, quantity: item.quantity === undefined ? 1 : (item.quantity as number) };
    });
  }
  let tags: Record<string, unknown> = {};
  if (session.tags !== undefined) {
    if (session.tags === null || typeof session.tags !== 'object' || Array.isArray(session.tags)) throw new CheckoutProblem('The secure payload\'s "tags" must be an object.');
    tags = session.tags as Record<string, unknown>;
  }
  const contact = (session.contact ?? session.paymentContact) as { email?: unknown } | undefined;
  const email = contact && typeof contact === 'object' && typeof contact.email === 'string' ? contact.email : null;
  return { reset: session.reset === true, products, tags, email };
}
