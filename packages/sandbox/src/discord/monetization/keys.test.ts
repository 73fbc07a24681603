import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { DEMO_APP } from '../demo-data';
import { discordKeyPair, discordPublicKeyHex, signDiscordEvent, verifyDiscordEvent } from './keys';
import { PUBLIC_KEY, SEED } from './test-helpers';

describe('Ed25519 keys and signatures (reference vectors)', () => {
  test('the seed derives the reference test 1 public key (DEMO_APP.publicKey)', () => {
    expect(discordPublicKeyHex(SEED)).toBe(PUBLIC_KEY);
    expect(PUBLIC_KEY).toBe(DEMO_APP.publicKey);
    expect(discordKeyPair(SEED).publicKeyHex).toMatch(/^[0-9a-f]{64}$/);
  });

  test('reference test 1: the empty message', () => {
    expect(signDiscordEvent('', '', SEED)).toBe(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    );
  });

  test('derived vector: timestamp 1700000000, body {"type":0}', () => {
    const sig = signDiscordEvent('{"type":0}', '1700000000', discordKeyPair(SEED).privateKey);
    expect(sig).toBe('09047712d219a6627d677fe94ecb8845a120c47ce2110e9760e34a93ab43e7fac689a79a828c2eb380ed2c6e558fb604179b533be108d6354493c89e602e670b');
    expect(signDiscordEvent(Buffer.from('{"type":0}'), 1700000000, SEED)).toBe(sig);
  });

  test('verifies with node:crypto against the 64-hex public key, as the API does', () => {
    const raw = '{"version":1,"application_id":"1","type":0}';
    const sig = signDiscordEvent(raw, '1768478400', SEED);
    const key = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(PUBLIC_KEY, 'hex')]), format: 'der', type: 'spki' });
    expect(verify(null, Buffer.from(`1768478400${raw}`), key, Buffer.from(sig, 'hex'))).toBe(true);
    expect(verifyDiscordEvent(raw, '1768478400', sig, PUBLIC_KEY)).toBe(true);
    expect(verifyDiscordEvent(`${raw} `, '1768478400', sig, PUBLIC_KEY)).toBe(false);
    expect(verifyDiscordEvent(raw, '1768478401', sig, PUBLIC_KEY)).toBe(false);
    expect(verifyDiscordEvent(raw, '1768478400', 'zz', PUBLIC_KEY)).toBe(false);
  });

  test('refuses a seed that is not 32 bytes of hex', () => {
    expect(() => discordKeyPair('abc')).toThrow(/64 hex/);
    expect(() => discordKeyPair(`${SEED}00`)).toThrow(/64 hex/);
  });
});
