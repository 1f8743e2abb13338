// The root README's agent snippets, run as a user would run them: every `### <framework>` section under
// "## Start in your agent" has a ```sh block with its `npm install ...` line and a ```js block. Each js
// block is copied out of the README as-is into a fresh project whose dependencies are the packages its
// install line names (the @ewp/* ones from tarballs packed here, the others at the versions this
// workspace tests them with), installed with npm, and run with node: under the Node 22 lane's binary
// when a package it installs asks for Node >= 22. A snippet passes when it exits 0 and prints the two
// decisions the README promises: nothing observed is refused, the recorded observation lets it act.
//
//   node scripts/readme-snippets.mjs [--only "AI SDK,Mastra"] [--results FILE]   packages must be built
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckResults, option } from './check-results.mjs';
import { packPackages } from './pack-packages.mjs';
import { mapLimit, run } from './run-process.mjs';
import { ensureNode22 } from './test-node22.mjs';
import { publicPackages, ROOT, typedEntryPoints, workspacePackages } from './workspace.mjs';

export const SECTION = '## Start in your agent';

/** `[{ framework, install: string[], code }]` from the README's agent section. */
export function readmeSnippets(readme) {
  const start = readme.indexOf(`\n${SECTION}\n`);
  if (start < 0) throw new Error(`README.md has no "${SECTION}" section`);
  const end = readme.indexOf('\n## ', start + SECTION.length + 2);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const snippets = [];
  for (const part of section.split('\n### ').slice(1)) {
    const framework = part.slice(0, part.indexOf('\n')).trim();
    const install = /```sh\n(npm install [^\n#]+)/.exec(part)?.[1];
    const code = /```js\n([\s\S]*?)\n```/.exec(part)?.[1];
    if (!install || !code) throw new Error(`README.md "${SECTION}" → "${framework}" needs a \`\`\`sh npm install line and a \`\`\`js block`);
    snippets.push({ framework, install: install.trim().split(/\s+/).slice(2), code });
  }
  return snippets;
}

/** The version this workspace tests `name` with (a package's devDependencies, else its dependencies). */
function testedVersion(name) {
  for (const field of ['devDependencies', 'dependencies']) {
    for (const pkg of workspacePackages()) {
      const v = pkg.manifest[field]?.[name];
      if (v && !v.startsWith('workspace:') && /^\d/.test(v)) return v;
    }
  }
  return undefined;
}

/** `name@range` → name; `@scope/name@range` → @scope/name. */
const bareName = (spec) => (spec.startsWith('@') ? `@${spec.slice(1).split('@')[0]}` : spec.split('@')[0]);

async function main() {
  const results = new CheckResults('README agent snippets');
  const only = option('only')?.split(',');
  const snippets = readmeSnippets(readFileSync(join(ROOT, 'README.md'), 'utf8')).filter((s) => !only || only.includes(s.framework));
  const scratch = mkdtempSync(join(tmpdir(), 'ewp-readme-snippets-'));
  try {
    const packages = publicPackages().filter((p) => typedEntryPoints(p).every((e) => existsSync(join(p.path, e.import))));
    mkdirSync(join(scratch, 'tarballs'));
    const packed = await packPackages(packages, join(scratch, 'tarballs'));
    const local = Object.fromEntries(packed.map((p) => [p.pkg.name, `file:${p.tarball}`]));
    const engines = Object.fromEntries(packages.map((p) => [p.name, p.manifest.engines?.node ?? '']));
    await mapLimit(snippets, 2, async ({ framework, install, code }) => {
      const name = `snippet: ${framework}`;
      try {
        const dependencies = {};
        for (const spec of install) {
          const dep = bareName(spec);
          if (dep.startsWith('@ewp/')) {
            if (!local[dep]) throw new Error(`the install line names ${dep}, which is not a built public package`);
            dependencies[dep] = local[dep];
          } else {
            const v = testedVersion(dep);
            if (!v) throw new Error(`the install line names ${dep}, which no workspace package tests with`);
            dependencies[dep] = v;
          }
        }
        const dir = join(scratch, framework.replace(/\W+/g, '-'));
        mkdirSync(dir);
        const manifest = { name: 'user-project', version: '1.0.0', private: true, type: 'module', dependencies, overrides: local };
        writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
        writeFileSync(join(dir, 'agent.mjs'), `${code}\n`);
        const env = { ...process.env, NODE_PATH: '', npm_config_yes: 'true' };
        delete env.npm_config_prefix;
        const i = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env, timeoutMs: 600_000 });
        if (i.code !== 0) throw new Error(`npm install exited ${i.code}: ${`${i.stderr}\n${i.stdout}`.trim().split('\n').slice(-6).join(' | ')}`);
        const needs22 = install.some((spec) => /^>=\s*22/.test(engines[bareName(spec)] ?? ''));
        const node = needs22 ? ensureNode22() : process.execPath;
        const r = await run(node, ['agent.mjs'], { cwd: dir, env, timeoutMs: 180_000 });
        const out = `${r.stdout}`;
        if (r.code !== 0) throw new Error(`node agent.mjs exited ${r.code}: ${`${r.stderr}\n${out}`.trim().split('\n').slice(-8).join(' | ')}`);
        const refused = /nothing observed:[\s\S]*?\b(DENY|deny)\b/.test(out);
        const acted = /observed healthy:.*(restarted server01|allow\b)/.test(out);
        if (!refused || !acted)
          throw new Error(`the snippet ran but did not print the README's two decisions (refused, then acted): ${out.trim().slice(0, 600)}`);
        results.pass(name, `installed in ${(i.ms / 1000).toFixed(0)} s, ran in ${(r.ms / 1000).toFixed(1)} s on Node ${needs22 ? 22 : process.versions.node}`);
      } catch (error) {
        results.fail(name, error.message);
      }
    });
  } catch (error) {
    results.fail('README agent snippets', error.message);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  results.finish();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
