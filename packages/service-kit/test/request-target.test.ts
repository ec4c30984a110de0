import { describe, expect, it } from 'vitest';
import { originForm } from '../src/request-target.ts';

describe('originForm', () => {
  it.each([
    ['/api/v1/x?y=1', '/api/v1/x?y=1'],
    ['http://host/api/v1/x?y=1', '/api/v1/x?y=1'],
    ['HTTPS://host:8443/a/b', '/a/b'],
    ['http://user@host/a', '/a'],
    ['http://host', '/'],
    ['http://host?q=1', '/?q=1'],
  ])('reads %s as %s', (target, path) => {
    expect(originForm(target)).toBe(path);
  });

  it.each([
    'ftp://host/a',
    'host/a',
    '*',
    'http:///a',
    'http://',
    'http://host#frag/a',
    'http://host/a#x',
    'http://[bad/a',
  ])('refuses %s', (target) => {
    expect(originForm(target)).toBeNull();
  });
});
