// Writes dist/THIRD_PARTY_LICENSES.md: the license of every third-party package bundled into the
// CLI's chunks (the serve chunk carries the MCP SDK, zod, ajv and their dependencies), read from
// the build's esbuild metafile, which is then removed from dist.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(cli, 'dist');
const metafiles = readdirSync(dist).filter((f) => /^metafile-.*\.json$/.test(f));
if (metafiles.length === 0) throw new Error('no esbuild metafile in dist: build with tsup (metafile: true) first');

const roots = new Set();
for (const f of metafiles) {
  for (const input of Object.keys(JSON.parse(readFileSync(join(dist, f), 'utf8')).inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.replace(/\\/g, '/'));
    if (m) roots.add(resolve(cli, m[1]));
  }
  rmSync(join(dist, f));
}

const sections = [];
for (const root of [...roots].sort()) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (pkg.name.startsWith('@ewp/')) continue; // ours, under this package's license
  const file = readdirSync(root).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  const text = file ? readFileSync(join(root, file), 'utf8').trim() : `(no license file in the package; package.json says ${pkg.license})`;
  sections.push(`## ${pkg.name}@${pkg.version} (${pkg.license ?? 'see below'})\n\n\`\`\`\n${text}\n\`\`\``);
}
writeFileSync(
  join(dist, 'THIRD_PARTY_LICENSES.md'),
  `# Third-party code bundled in @ewp/cli\n\nThe CLI's chunks include these packages; their licenses follow.\n\n${sections.join('\n\n')}\n`,
);
console.log(`dist/THIRD_PARTY_LICENSES.md: ${sections.length} packages`);
