/**
 * docs/architecture.md against the package graph: the layers its diagram draws are the layers the
 * package.json files declare. Every published package appears in the diagram, and every `@ewp/*`
 * dependency (runtime or peer) points to a lower layer, never sideways or up.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The layers of the "Layers and dependency direction" diagram, bottom first. */
const LAYERS: string[][] = [
  // The contracts: wire types, vocabularies, field limits, the tool registry. No dependencies.
  ['@ewp/spec'],
  ['@ewp/core'],
  ['@ewp/canonical', '@ewp/http-guard'],
  ['@ewp/ledger', '@ewp/receipts', '@ewp/conformance'],
  // The evidence layer sits on the engine; the agent tools build on it.
  ['@ewp/memory'],
  ['@ewp/sqlite', '@ewp/postgres', '@ewp/mem0', '@ewp/zep', '@ewp/tools'],
  ['@ewp/mcp', '@ewp/ai-sdk', '@ewp/langchain', '@ewp/openai-agents', '@ewp/mastra', '@ewp/claude-code', '@ewp/adk', '@ewp/inspect'],
  ['@ewp/cli'],
];

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifests: Manifest[] = [
  ...readdirSync(join(root, 'packages')).map((d) => join(root, 'packages', d, 'package.json')),
  join(root, 'conformance', 'package.json'),
].map((file) => JSON.parse(readFileSync(file, 'utf8')) as Manifest);
const published = manifests.filter((m) => m.private !== true);
const layerOf = new Map(LAYERS.flatMap((names, layer) => names.map((name) => [name, layer] as const)));

it('every published package is in a layer, and in the diagram of docs/architecture.md', () => {
  const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
  const diagram = /## Layers and dependency direction\s*```([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  const drawn = new Set(diagram.match(/@ewp\/[a-z0-9-]+/g));
  expect([...drawn].sort()).toEqual(published.map((m) => m.name).sort());
  expect([...layerOf.keys()].sort()).toEqual(published.map((m) => m.name).sort());
});

it('every @ewp dependency points to a lower layer', () => {
  const upward: string[] = [];
  for (const m of published) {
    const own = layerOf.get(m.name) as number;
    for (const dep of Object.keys({ ...m.dependencies, ...m.peerDependencies })) {
      if (dep.startsWith('@ewp/') && (layerOf.get(dep) ?? Number.POSITIVE_INFINITY) >= own) upward.push(`${m.name} -> ${dep}`);
    }
  }
  expect(upward).toEqual([]);
});
