import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computePackHashes, loadFixtures, loadInvalidViews, PACK_DIR, readPackLock } from './index.js';

describe('the pack is intact', () => {
  const computed = computePackHashes();

  it('matches PACK.lock.json (edit a pack file only with a new pack_version: scripts/update-pack-lock.mjs)', () => {
    const lock = readPackLock();
    expect(computed.parts).toStrictEqual(lock.parts);
    expect(computed.golden_set_sha256).toBe(lock.golden_set_sha256);
    expect(computed.implementer_pack_sha256).toBe(lock.implementer_pack_sha256);
  });

  it("matches the reference release's lock hashes", () => {
    const release = JSON.parse(readFileSync(`${PACK_DIR}RELEASE.lock.json`, 'utf8'));
    expect(computed.golden_set_sha256).toBe(release.golden_set_sha256);
    expect(computed.implementer_pack_sha256).toBe(release.implementer_pack_sha256);
  });

  it('has 14 canonical, 12 pathological, 26 hardening fixtures, 26 goldens and 35 invalid views', () => {
    const fixtures = loadFixtures();
    const count = (family: string) => fixtures.filter((f) => f.family === family).length;
    expect([count('canonical'), count('pathological'), count('hardening')]).toEqual([14, 12, 26]);
    expect(fixtures.filter((f) => f.golden)).toHaveLength(26);
    expect(loadInvalidViews()).toHaveLength(35);
  });
});
