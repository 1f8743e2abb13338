import { InvalidArgumentError } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { mem0HostedSubject, mem0OssSubject } from './conformance.js';

// The subjects run against stores of the caller's; the runs themselves are in @ewp/mem0-testing
// (on its local doubles) and in `ewp conformance --mem0 URL`.
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new InvalidArgumentError('f', 'expected a refusal');
};

describe('Mem0 conformance subjects need a target', () => {
  it('refuses a target without a memory, key, URL host or namespace, naming the field', () => {
    for (const [make, path] of [
      [() => mem0OssSubject({ namespace: 'n' } as never), 'target.memory'],
      [() => mem0OssSubject({ memory: async () => ({}) as never, namespace: '' }), 'target.namespace'],
      [() => mem0HostedSubject({ apiKey: '', host: 'https://api.mem0.ai', namespace: 'n' }), 'target.apiKey'],
      [() => mem0HostedSubject({ apiKey: 'k', host: 'api.mem0.ai', namespace: 'n' }), 'target.host'],
      [() => mem0HostedSubject({ apiKey: 'k', host: 'https://api.mem0.ai', namespace: '' }), 'target.namespace'],
    ] as const) {
      const error = refusal(make);
      expect(InvalidArgumentError.isInstance(error), path).toBe(true);
      expect(error).toMatchObject({ path });
    }
  });

  it('names a deployment by its host; one opened on first use is mem0-hosted', () => {
    expect(mem0HostedSubject({ apiKey: 'k', host: 'https://api.mem0.ai', namespace: 'n' }).name).toBe('mem0-hosted@api.mem0.ai');
    expect(mem0HostedSubject(async () => ({ apiKey: 'k', host: 'https://api.mem0.ai', namespace: 'n' })).name).toBe('mem0-hosted');
  });

  it('opens a lazy target on the first fixture only, checks what it gives, and closes nothing it never opened', async () => {
    let opened = 0;
    let closed = 0;
    const lazy = mem0HostedSubject(async () => {
      opened++;
      return { apiKey: 'k', host: 'not a url', namespace: 'n', close: async () => void closed++ };
    });
    await lazy.dispose?.();
    expect(opened).toBe(0);
    await expect(lazy.create()).rejects.toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'target.host' });
    expect(opened).toBe(1);
    const oss = mem0OssSubject({ memory: async () => ({}) as never, namespace: 'n', close: async () => void closed++ });
    await oss.dispose?.();
    expect(closed).toBe(1);
  });
});
