import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject, type Plugin } from 'vitest/config';

// Workspace packages (@ewp/*) resolve to their TypeScript sources (their `source` export).
// This is a resolver plugin rather than a `source` resolve condition because Vitest hands the
// SSR conditions to Node as `--conditions`, and some dependencies publish a `source` condition of
// their own that points at TypeScript Node cannot load (eventsource-parser, under `ai`).
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const sources = new Map<string, string>();
for (const dir of [...readdirSync(join(root, 'packages')).map((d) => join(root, 'packages', d)), join(root, 'conformance')]) {
  let pkg: { name?: string; exports?: Record<string, { source?: string } | string> };
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
  for (const [sub, target] of Object.entries(pkg.exports ?? {})) {
    if (typeof target === 'object' && target.source) sources.set(`${pkg.name}${sub.slice(1)}`, join(dir, target.source));
  }
}
const workspaceSources: Plugin = {
  name: 'ewp-workspace-sources',
  enforce: 'pre',
  resolveId: (id) => sources.get(id),
};

export default defineProject({
  plugins: [workspaceSources],
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});
