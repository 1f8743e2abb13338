// Run pnpm 10.34.9 whether or not it is installed: a fresh machine has only Node 20 and npm.
import { spawnSync } from 'node:child_process';

const PNPM = '10.34.9';

function hasPnpm() {
  const r = spawnSync('pnpm', ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' });
  return r.status === 0 && r.stdout.trim() === PNPM;
}

const direct = hasPnpm();

/** The command and arguments that run pnpm with `args` (for scripts that spawn it themselves). */
export function pnpmCommand(args) {
  return direct ? ['pnpm', args] : ['npx', ['-y', `pnpm@${PNPM}`, ...args]];
}

/** Run pnpm with args, inheriting stdio; exits the process on failure. */
export function pnpm(args, options = {}) {
  const [cmd, full] = pnpmCommand(args);
  const r = spawnSync(cmd, full, {
    stdio: 'inherit',
    shell: process.platform === 'win32',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', COREPACK_ENABLE_STRICT: '0' },
    ...options,
  });
  if (r.status !== 0) {
    console.error(`\nfailed: pnpm ${args.join(' ')} (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}
