// `pnpm release:dry`: the release workflow's steps on this machine, without publishing and without
// touching the working tree. The committed tree (HEAD) is copied into a scratch folder, installed from
// the local store, built (turbo's cache is shared with the working tree), versioned by changesets
// (CHANGELOGs written there), and every public package goes through `pnpm publish --dry-run`. Prints
// one row per tarball: name, version, files, packed size. Exits 1 when any step fails.
//
//   node scripts/release-dry.mjs [--keep]     --keep leaves the scratch copy for a look
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flag } from './check-results.mjs';
import { packPackages } from './pack-packages.mjs';
import { pnpmCommand } from './pnpm.mjs';
import { mapLimit, run } from './run-process.mjs';
import { ROOT, publicPackages, workspacePackages } from './workspace.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'ewp-release-'));
const tree = join(scratch, 'repo');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', COREPACK_ENABLE_STRICT: '0', CI: '1' };

function step(title, cmd, args, cwd = tree) {
  const started = performance.now();
  process.stdout.write(`release:dry: ${title} ... `);
  try {
    execFileSync(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    console.log('failed');
    console.error(`${cmd} ${args.join(' ')}\n${String(error.stdout ?? '')}${String(error.stderr ?? '')}`.trim());
    throw new Error(`release:dry: ${title} failed`);
  }
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const pnpmStep = (title, args) => step(title, ...pnpmCommand(args));

function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

async function main() {
  // The committed tree only: a release is of what is committed, not of anyone's uncommitted edits.
  step('copy HEAD into a scratch folder', 'sh', ['-c', `mkdir -p "${tree}" && git -C "${ROOT}" archive --format=tar HEAD | tar -x -C "${tree}"`], ROOT);
  pnpmStep('install (offline, from the local store)', ['install', '--frozen-lockfile', '--prefer-offline']);
  // Built before versioning, so turbo's inputs match the working tree's and its cache answers.
  pnpmStep('build', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', `--cache-dir=${join(ROOT, '.turbo/cache')}`]);

  const before = new Map(workspacePackages().map((p) => [p.name, p.version]));
  step('changeset version', process.execPath, [join(tree, 'node_modules/@changesets/cli/bin.js'), 'version']);

  // The versioned manifests, read from the scratch copy through the same discovery as everywhere else.
  const released = publicPackages().map((p) => {
    const path = join(tree, p.dir);
    const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
    return { ...p, path, manifest, version: manifest.version };
  });
  const privates = workspacePackages().filter((p) => p.private);
  const problems = [];
  for (const p of privates) {
    const manifest = JSON.parse(readFileSync(join(tree, p.dir, 'package.json'), 'utf8'));
    if (manifest.private !== true) problems.push(`${p.name} lost "private": true`);
    if (manifest.version !== p.version)
      problems.push(`${p.name} is private but was versioned ${p.version} -> ${manifest.version} (set privatePackages.version false in .changeset/config.json)`);
  }
  for (const p of released) {
    if (p.version === '0.0.0') problems.push(`${p.name} stays at 0.0.0: no pending changeset names it`);
    else if (before.get(p.name) === '0.0.0' && p.version !== '0.1.0')
      problems.push(`${p.name}'s first version would be ${p.version}, not 0.1.0: its first changeset must be \`minor\``);
    if (before.get(p.name) !== p.version && !existsSync(join(p.path, 'CHANGELOG.md'))) problems.push(`${p.name} was versioned but has no CHANGELOG.md`);
  }

  const packed = await packPackages(released, join(scratch, 'tarballs'));
  const publishes = await mapLimit(released, 3, async (p) => {
    const [cmd, args] = pnpmCommand(['publish', '--dry-run', '--no-git-checks', '--access', 'public']);
    const r = await run(cmd, args, { cwd: p.path, env });
    return { p, r };
  });
  for (const { p, r } of publishes) {
    if (r.code !== 0) problems.push(`pnpm publish --dry-run of ${p.name} exited ${r.code}: ${(r.stderr || r.stdout).trim().split('\n').slice(-5).join(' | ')}`);
  }

  const rows = packed.map(({ pkg, files, bytes }) => [pkg.name, `${before.get(pkg.name)} -> ${pkg.version}`, String(files.length), kib(bytes)]);
  const header = ['package', 'version', 'files', 'packed'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  console.log(`\n${packed.length} public packages would be published; private, not published: ${privates.map((p) => p.name).join(', ')}`);
  console.log(`CHANGELOGs and versions were written in ${tree} only; the working tree is unchanged.`);
  if (problems.length) {
    console.error(`\nrelease:dry found ${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
    process.exitCode = 1;
  }
}

try {
  await main();
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  if (flag('keep')) console.log(`(kept ${scratch})`);
  else rmSync(scratch, { recursive: true, force: true });
}
