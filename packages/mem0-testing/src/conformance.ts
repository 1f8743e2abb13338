/**
 * The Mem0 subjects of the shared loss-report suite run offline, on this package's doubles: the
 * open-source `Memory` on a temp dir, the hosted `MemoryClient` against the local REST server. Used
 * by the tests here and by `ewp conformance` in a checkout of the repository (elsewhere it needs a
 * deployment: `ewp conformance --mem0 URL`).
 * @packageDocumentation
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdapterSubject } from '@ewp/core';
import { mem0HostedSubject, mem0OssSubject } from '@ewp/mem0/conformance';
import { startMem0RestServer } from './mem0-rest-server.js';
import { offlineMemory } from './offline-memory.js';

/** `mem0-oss`: a real open-source `Memory` built by `offlineMemory()` in a temp dir, removed after the run. */
export function offlineMem0OssSubject(): AdapterSubject {
  // Made on the first fixture: a subject that is listed but never run leaves nothing behind.
  let dir: string | undefined;
  return mem0OssSubject({
    memory: () => {
      dir = mkdtempSync(join(tmpdir(), 'ewp-mem0-conformance-'));
      return offlineMemory(dir);
    },
    namespace: 'conformance',
    close: async () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** `mem0-hosted`: the real `MemoryClient` against a local REST server started for the run, stopped after it. */
export function localMem0HostedSubject(): AdapterSubject {
  return mem0HostedSubject(async () => {
    const server = await startMem0RestServer({ processingDelayMs: 1 });
    return { apiKey: server.apiKey, host: server.url, namespace: 'conformance', close: () => server.close() };
  });
}

/** Every offline Mem0 subject, for `ewp conformance`. */
export function conformanceSubjects(): AdapterSubject[] {
  return [offlineMem0OssSubject(), localMem0HostedSubject()];
}
