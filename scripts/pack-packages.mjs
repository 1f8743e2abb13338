// Pack public packages as `pnpm publish` would (workspace: ranges replaced by versions, `files` applied),
// and read what a tarball holds. Used by the package-quality checks, the installs as a user and the
// release dry run, so all three look at the same bytes.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pnpmCommand } from './pnpm.mjs';
import { mapLimit, run } from './run-process.mjs';

/**
 * Pack each package (built beforehand) into `destination`; resolves `[{ pkg, tarball, files, bytes }]`
 * (`files`: the paths inside the tarball, `bytes`: its size), or throws
 * naming every package whose pack failed.
 */
export async function packPackages(packages, destination) {
  const failures = [];
  const packed = await mapLimit(packages, 4, async (pkg) => {
    const [cmd, args] = pnpmCommand(['pack', '--pack-destination', destination, '--json']);
    const r = await run(cmd, args, { cwd: pkg.path, env: { ...process.env, COREPACK_ENABLE_STRICT: '0' } });
    if (r.code !== 0) {
      failures.push(`${pkg.name}: pnpm pack exited ${r.code}: ${r.stderr.trim() || r.stdout.trim()}`);
      return undefined;
    }
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
    const tarball = report.filename.startsWith('/') ? report.filename : join(destination, report.filename);
    return { pkg, tarball, files: report.files.map((f) => f.path), bytes: statSync(tarball).size };
  });
  if (failures.length) throw new Error(failures.join('\n'));
  return packed;
}
