import { afterEach, describe, expect, it } from 'vitest';

/**
 * The front ends' case (src/zod-setup.ts): a page whose Content-Security-Policy refuses eval. Without a
 * browser here, a `document` exists when the contract is first imported, and every `new Function`
 * is recorded. Nothing else in this file imports the contract or zod, so the import below is the
 * first: it builds every schema of the contract.
 */
const original = globalThis.Function;
afterEach(() => {
  globalThis.Function = original;
  Reflect.deleteProperty(globalThis, 'document');
});

describe('zod in a browser', () => {
  it('never calls new Function: jitless is set before the first schema is built, and parsing stays correct', async () => {
    const constructed: unknown[][] = [];
    globalThis.Function = new Proxy(original, {
      construct(target, args, newTarget) {
        constructed.push(args);
        return Reflect.construct(target, args, newTarget);
      },
    });
    Object.defineProperty(globalThis, 'document', { configurable: true, value: {} });

    const { z } = await import('./zod-setup');
    const contract = await import('./index');
    // An object schema parsed synchronously, the JIT's path.
    expect(contract.TranscriptRole.parse({ id: '1100000000000000001', name: 'Support', colour: null })).toEqual({ id: '1100000000000000001', name: 'Support', colour: null });
    expect(contract.TranscriptRole.safeParse({ id: 'x', name: 'Support', colour: null }).success).toBe(false);
    expect(constructed).toEqual([]);
    expect(z.config().jitless).toBe(true);
  });
});
