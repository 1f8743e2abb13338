import { EwpError } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { createHostGuard, hostNameOfHeader, isLoopbackHost, UnsafeBindError } from './host-guard.js';

describe('hostNameOfHeader', () => {
  it('reads names, ports and bracketed IPv6', () => {
    expect(hostNameOfHeader('LocalHost:8765')).toBe('localhost');
    expect(hostNameOfHeader('[::1]:80')).toBe('::1');
    expect(hostNameOfHeader('127.0.0.1')).toBe('127.0.0.1');
  });
  it('refuses anything after the brackets or port', () => {
    for (const bad of ['[::1].evil.com', '[::1]evil', 'localhost:80.evil.com', 'localhost@evil.com', '', 'a b']) {
      expect(hostNameOfHeader(bad)).toBeUndefined();
    }
  });
});

describe('createHostGuard', () => {
  it('a loopback server answers loopback names only', () => {
    const guard = createHostGuard({ bindHost: '127.0.0.1' });
    expect(guard({ host: '127.0.0.1:1' })).toEqual({ ok: true });
    expect(guard({ host: '[::1]:1', origin: 'http://localhost:3' })).toEqual({ ok: true });
    expect(guard({ host: '[::1].evil.com' })).toEqual({ ok: false, reason: 'forbidden host' });
    expect(guard({ host: 'evil.com' })).toEqual({ ok: false, reason: 'forbidden host' });
    expect(guard({ host: 'localhost', origin: 'http://[::1].evil.com' })).toEqual({ ok: false, reason: 'forbidden origin' });
    expect(guard({ host: 'localhost', origin: 'null' })).toEqual({ ok: true });
    expect(guard({ origin: 'null' })).toEqual({ ok: false, reason: 'missing host' });
  });
  it('binding beyond loopback requires allowed host names and keeps the checks', () => {
    expect(() => createHostGuard({ bindHost: '0.0.0.0' })).toThrow(UnsafeBindError);
    try {
      createHostGuard({ bindHost: '::' });
    } catch (error) {
      expect(EwpError.isInstance(error) && error.code).toBe('UNSAFE_BIND');
    }
    const guard = createHostGuard({ bindHost: '0.0.0.0', allowedHosts: ['ewp.example.org'] });
    expect(guard({ host: 'EWP.example.org:8765' })).toEqual({ ok: true });
    expect(guard({ host: 'evil.com' })).toEqual({ ok: false, reason: 'forbidden host' });
    expect(guard({ host: 'ewp.example.org', origin: 'https://evil.com' })).toEqual({ ok: false, reason: 'forbidden origin' });
  });
  it('knows loopback bind addresses', () => {
    expect(isLoopbackHost('127.0.0.2')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('127.0.0.1.evil.com')).toBe(false);
  });
});
