import { describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH, jsonShapeProblem, parseUntrustedJson } from '../../src/lib/json-body';

describe('jsonShapeProblem', () => {
  it('counts nesting of arrays and objects, not brackets inside strings (escaped quotes included)', () => {
    expect(jsonShapeProblem('[[[]]]', 3)).toBeNull();
    expect(jsonShapeProblem('[[[[]]]]', 3)).toBe('depth');
    expect(jsonShapeProblem('{"a":{"b":{"c":1}}}', 3)).toBeNull();
    expect(jsonShapeProblem('{"a":{"b":{"c":{}}}}', 3)).toBe('depth');
    expect(jsonShapeProblem(`{"a":"${'['.repeat(100)}"}`, 3)).toBeNull();
    expect(jsonShapeProblem(`{"a":"\\"${'['.repeat(100)}"}`, 3)).toBeNull();
    // An escaped backslash ends before the quote: the string closes there, the brackets after count.
    expect(jsonShapeProblem(`["\\\\",${'['.repeat(5)}${']'.repeat(5)}]`, 3)).toBe('depth');
  });

  it('counts containers against a budget', () => {
    expect(jsonShapeProblem(`[${'[],'.repeat(9)}[]]`, 32, 11)).toBeNull();
    expect(jsonShapeProblem(`[${'[],'.repeat(10)}[]]`, 32, 11)).toBe('containers');
    expect(jsonShapeProblem(`[${'0,'.repeat(10_000)}0]`, 32, 2)).toBeNull();
  });
});

describe('parseUntrustedJson', () => {
  it('drops __proto__ and constructor keys, refuses deep nesting and what is not JSON with 1001', () => {
    expect(parseUntrustedJson('{"a":1,"__proto__":{"x":1},"constructor":{"y":2}}')).toEqual({ a: 1 });
    expect(() => parseUntrustedJson(`${'['.repeat(JSON_MAX_DEPTH + 1)}${']'.repeat(JSON_MAX_DEPTH + 1)}`)).toThrow(/more than 32 levels deep/);
    expect(() => parseUntrustedJson('{"a":')).toThrow(/not valid JSON/);
  });
});
