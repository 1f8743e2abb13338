import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The kernel runs in browsers and edge runtimes: no `node:` imports, no dependencies but the contracts (@ewp/spec, itself dependency-free).
describe('@ewp/core stays pure', () => {
  it('imports nothing from node: or from other packages but @ewp/spec outside tests', () => {
    const dir = new URL('./', import.meta.url);
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      const imports = [...text.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!);
      for (const spec of imports) expect(spec.startsWith('.') || spec === '@ewp/spec', `${f} imports ${spec}`).toBe(true);
    }
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({ '@ewp/spec': 'workspace:*' });
    const spec = JSON.parse(readFileSync(new URL('../../spec/package.json', import.meta.url), 'utf8'));
    // The contracts depend on nothing; only the tool registry (`@ewp/spec/tools`) needs zod, an optional peer.
    expect(spec.dependencies ?? {}).toEqual({});
    expect(Object.keys(spec.peerDependencies ?? {})).toEqual(['zod']);
    expect(spec.peerDependenciesMeta).toEqual({ zod: { optional: true } });
  });

  it("keeps @ewp/spec's root entry (the part core imports) free of zod and of every other package", () => {
    const dir = new URL('../../spec/src/', import.meta.url);
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('tools/') && !f.startsWith('tools\\'),
    );
    expect(files).toContain('index.ts');
    for (const f of files) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      for (const m of text.matchAll(/from\s+'([^']+)'/g)) {
        const spec = m[1]!;
        expect(spec.startsWith('./') && !spec.startsWith('./tools/'), `spec/src/${f} imports ${spec}`).toBe(true);
      }
    }
  });
});
