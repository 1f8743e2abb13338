// `pnpm release:dry`: the release workflow's steps on this machine, without publishing and without
// touching the working tree. The committed tree (HEAD) is cloned into a scratch folder, installed from
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
import { ROOT, workspacePackages } from './workspace.mjs';

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

/**
 * The workspace's packages as the scratch copy holds them: discovered as everywhere else, but each read
 * from the copy (its path, manifest, version, private flag), since the release is of the committed tree.
 * A package only in the working tree (not committed yet) is not released; it is named, not an error.
 */
function committedPackages() {
  const packages = [];
  for (const p of workspacePackages()) {
    const path = join(tree, p.dir);
    if (!existsSync(join(path, 'package.json'))) {
      console.log(`release:dry: ${p.name} (${p.dir}) is not in HEAD: not released`);
      continue;
    }
    const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
    packages.push({ ...p, path, manifest, name: manifest.name, version: manifest.version, private: manifest.private === true });
  }
  return packages;
}

/** The versions `changeset version` wrote into the copy. */
function versioned(packages) {
  return packages.map((p) => {
    const manifest = JSON.parse(readFileSync(join(p.path, 'package.json'), 'utf8'));
    return { ...p, manifest, version: manifest.version, private: manifest.private === true };
  });
}

function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

async function main() {
  // The committed tree only: a release is of what is committed, not of anyone's uncommitted edits. A
  // clone (sharing the repository's objects, so nothing is copied or written there), not an archive:
  // `changeset version` asks git which commit added each changeset and cites it in the CHANGELOGs, as
  // in CI; without history every line would read a bare "Updated dependencies".
  const head = execFileSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  step(`clone HEAD (${head.slice(0, 7)}) into a scratch folder`, 'git', ['clone', '--quiet', '--shared', '--no-checkout', ROOT, tree], ROOT);
  step('check out', 'git', ['-C', tree, 'checkout', '--quiet', '--detach', head], ROOT);
  pnpmStep('install (offline, from the local store)', ['install', '--frozen-lockfile', '--prefer-offline']);
  // Built before versioning, so turbo's inputs match the working tree's and its cache answers.
  pnpmStep('build', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', `--cache-dir=${join(ROOT, '.turbo/cache')}`]);

  const committed = committedPackages();
  const before = new Map(committed.map((p) => [p.name, p.version]));
  step('changeset version', process.execPath, [join(tree, 'node_modules/@changesets/cli/bin.js'), 'version']);

  const after = versioned(committed);
  const released = after.filter((p) => !committed.find((c) => c.name === p.name).private);
  const privates = committed.filter((p) => p.private);
  const problems = [];
  for (const p of after.filter((a) => privates.some((c) => c.name === a.name))) {
    if (!p.private) problems.push(`${p.name} lost "private": true`);
    if (p.version !== before.get(p.name))
      problems.push(
        `${p.name} is private but was versioned ${before.get(p.name)} -> ${p.version} (set privatePackages.version false in .changeset/config.json)`,
      );
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
