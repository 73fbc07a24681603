import { describe, expect, test } from 'vitest';
import * as sandbox from '../..';
import { signPaddle } from './signature';

describe('signPaddle', () => {
  test("matches the Paddle SDK's published vectors", () => {
    expect(signPaddle('{"data": ["1", "2"]}', 'VALID_SECRET', 1698796800)).toBe('ts=1698796800;h1=a300428748dce5c70e4da19bffd60769591ea969c99dea3105d0ec9612cf43f9');
    expect(signPaddle('{"data": "value"}', 'VALID_SECRET', 1698796800)).toBe('ts=1698796800;h1=28981e941fae76e53db32f3d2a83cb69db41476595e84e1970a1b5d98f62b261');
  });

  test('covers the exact bytes and the timestamp', () => {
    const left = signPaddle('{"data": ["1", "2"]}', 'VALID_SECRET', 1698796800);
    expect(signPaddle('{"data":["1","2"]}', 'VALID_SECRET', 1698796800)).not.toBe(left);
    expect(signPaddle('{"data": ["1", "2"]}', 'VALID_SECRET', 1698796801)).not.toBe(left);
    expect(signPaddle('{"data": ["1", "2"]}', 'OTHER_SECRET', 1698796800)).not.toBe(left);
  });

  test('refuses a timestamp that is not whole seconds', () => {
    expect(() => signPaddle('{}', 's', 1698796800.5)).toThrow(RangeError);
    expect(() => signPaddle('{}', 's', -1)).toThrow(RangeError);
  });

  test('the package root exports the Paddle stand-in', () => {
    expect(sandbox.signPaddle).toBe(signPaddle);
    expect(typeof sandbox.paddleSandbox).toBe('function');
    expect(typeof sandbox.createPaddleSandboxControl).toBe('function');
    // Encapsulated like the Discord sandbox (not wrapped in fastify-plugin).
    expect((sandbox.paddleSandbox as unknown as Record<symbol, unknown>)[Symbol.for('skip-override')]).toBeUndefined();
  });
});
