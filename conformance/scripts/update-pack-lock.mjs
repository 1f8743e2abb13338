// Regenerate pack/PACK.lock.json and the refusal codes in pack/manifest.json.
// Run only together with a pack version bump: the lock exists so that nobody edits a golden silently.
import { readFileSync, writeFileSync } from 'node:fs';
import { computePackHashes, PACK_DIR } from '../dist/pack/index.js';
import { decodeViewJson, REFERENCE_V2, warrantNow } from '@ewp/core';

const version = process.argv[2];
if (!version) {
  console.error('usage: node scripts/update-pack-lock.mjs <new pack version>');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(`${PACK_DIR}manifest.json`, 'utf8'));
for (const entry of manifest) {
  if (entry.family !== 'invalid') continue;
  const text = readFileSync(PACK_DIR + entry.view, 'utf8');
  try {
    const view = decodeViewJson(text);
    warrantNow(view, REFERENCE_V2, JSON.parse(text).evaluated_at);
    throw new Error(`${entry.name} was not refused`);
  } catch (error) {
    if (!error.code) throw error;
    entry.refusal = { class: error.name, code: error.code };
  }
}
writeFileSync(`${PACK_DIR}manifest.json`, `[\n${manifest.map((e) => `  ${JSON.stringify(e)}`).join(',\n')}\n]\n`);
const hashes = computePackHashes();
const lock = { pack_version: version, protocol: 'EWP-0.2.0', policy: 'reference-v2', ...hashes };
writeFileSync(`${PACK_DIR}PACK.lock.json`, `${JSON.stringify(lock, null, 2)}\n`);
console.log(lock);
