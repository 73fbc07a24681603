import { constants, createCipheriv, type KeyObject, privateEncrypt, randomBytes } from 'node:crypto';

/**
 * A FastSpring secure payload (Store Builder Library `fastspring.builder.secure(securePayload,
 * secureKey)`), as FastSpring documents it: the session object's JSON encrypted with AES-128-ECB
 * (PKCS#7 padding) under a random 16-byte key, base64 (`securePayload`); that key encrypted with the
 * store's RSA private key, PKCS#1 v1.5 padding, base64 (`secureKey`). FastSpring decrypts the key with
 * the public key the store uploaded, then the payload; the browser can pass it on, not change it.
 */
export function encryptSecurePayload(session: object, privateKey: KeyObject): { securePayload: string; secureKey: string } {
  const aesKey = randomBytes(16);
  const cipher = createCipheriv('aes-128-ecb', aesKey, null);
  const securePayload = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]).toString('base64');
  const secureKey = privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, aesKey).toString('base64');
  return { securePayload, secureKey };
}

/** A FastSpring checkout reference this server makes (in the secure payload's tags): unguessable, and only ever in the buyer's encrypted payload. */
export const FASTSPRING_CHECKOUT_REFERENCE = /^fsc_[A-Za-z0-9_-]{22,64}$/;
