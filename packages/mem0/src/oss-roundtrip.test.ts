import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeView, canonicalViewText } from '@ewp/core';
import { afterAll, describe, expect, it } from 'vitest';
import { mem0Adapter, Mem0AdapterError, offlineMemory } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-mem0-oss-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string) => decodeView(JSON.parse(readFileSync(`/work/shared/ewp/pack/fixtures/${name}.json`, 'utf8')));

describe('Mem0 OSS Memory (real, offline)', () => {
  it('round-trips a fixture losslessly', async () => {
    const memory = await offlineMemory(join(dir, 'a'));
    const adapter = mem0Adapter(memory, { userId: 'u1' });
    const view = fixture('08-verified-now');
    await adapter.write(view);
    const back = await adapter.read(view.proposition_id);
    expect(canonicalViewText(back)).toBe(canonicalViewText(view));
    expect(back.view_id).toBe(view.view_id);
  });
  it('refuses a different snapshot under the same view_id', async () => {
    const memory = await offlineMemory(join(dir, 'b'));
    const adapter = mem0Adapter(memory, { userId: 'u1' });
    const view = fixture('08-verified-now');
    await adapter.write(view);
    await adapter.write(view);
    await expect(adapter.write({ ...view, degraded: true })).rejects.toMatchObject({ code: 'SNAPSHOT_IMMUTABLE' });
    expect(Mem0AdapterError).toBeDefined();
  });
});
