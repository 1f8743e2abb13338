import { InvalidArgumentError } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { zepSubject } from './conformance.js';

// The subject runs against a Zep of the caller's; the runs themselves are in @ewp/zep-testing (on its
// local graph server) and in `ewp conformance --zep URL`.
describe('the Zep conformance subject needs a target', () => {
  it('refuses a target without a key, URL base or namespace, naming the field', () => {
    for (const [target, path] of [
      [{ apiKey: '', baseUrl: 'https://api.getzep.com/api/v2', namespace: 'n' }, 'target.apiKey'],
      [{ apiKey: 'k', baseUrl: 'api.getzep.com', namespace: 'n' }, 'target.baseUrl'],
      [{ apiKey: 'k', baseUrl: 'https://api.getzep.com/api/v2', namespace: '' }, 'target.namespace'],
    ] as const) {
      let error: unknown;
      try {
        zepSubject(target);
      } catch (e) {
        error = e;
      }
      expect(InvalidArgumentError.isInstance(error), path).toBe(true);
      expect(error).toMatchObject({ path });
    }
  });

  it('names a deployment by its host; one opened on first use is zep', () => {
    expect(zepSubject({ apiKey: 'k', baseUrl: 'https://api.getzep.com/api/v2', namespace: 'n' }).name).toBe('zep@api.getzep.com');
    expect(zepSubject(async () => ({ apiKey: 'k', baseUrl: 'https://api.getzep.com/api/v2', namespace: 'n' })).name).toBe('zep');
  });

  it('opens a lazy target on the first fixture only, and checks what it gives', async () => {
    let opened = 0;
    const lazy = zepSubject(async () => {
      opened++;
      return { apiKey: 'k', baseUrl: 'not a url', namespace: 'n' };
    });
    await lazy.dispose?.();
    expect(opened).toBe(0);
    await expect(lazy.create()).rejects.toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'target.baseUrl' });
    expect(opened).toBe(1);
  });
});
