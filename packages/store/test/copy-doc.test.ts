import { describe, expect, it } from 'vitest';
import { copyDoc } from '../src/copy-doc.ts';

describe('copyDoc', () => {
  it('copies nested objects and arrays so no part of the copy is shared', () => {
    const doc = { a: { b: [1, { c: 'x' }] }, n: null, t: true, u: undefined };
    const copy = copyDoc(doc);
    expect(copy).toEqual(doc);
    expect(copy.a).not.toBe(doc.a);
    expect(copy.a.b).not.toBe(doc.a.b);
    expect(copy.a.b[1]).not.toBe(doc.a.b[1]);
    expect(Object.hasOwn(copy, 'u')).toBe(true);
  });

  it('keeps an own "__proto__" key a plain property, never a prototype', () => {
    const doc = JSON.parse('{"__proto__": {"admin": true}, "name": "x"}') as Record<string, unknown>;
    const copy = copyDoc(doc);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { admin?: boolean }).admin).toBeUndefined();
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(doc));
  });

  it('copies what is not plain data as structuredClone does, and refuses functions', () => {
    const when = new Date('2026-01-01T00:00:00Z');
    const copy = copyDoc({ when, bytes: new Uint8Array([1, 2]) });
    expect(copy.when).toEqual(when);
    expect(copy.when).not.toBe(when);
    expect([...copy.bytes]).toEqual([1, 2]);
    expect(() => copyDoc({ run: () => 1 })).toThrow();
  });
});
