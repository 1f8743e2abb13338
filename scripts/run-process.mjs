// Child processes for the check scripts: run one and collect its output, and run many with a bound on
// how many at once (the machines have two cores).
import { spawn } from 'node:child_process';

/**
 * Run `cmd args` and resolve `{ code, stdout, stderr, ms }` (never rejects; a spawn error is code -1).
 * `options.timeoutMs` kills the process group after that long.
 */
export function run(cmd, args, options = {}) {
  const { timeoutMs, ...spawnOptions } = options;
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', ...spawnOptions });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    const timer = timeoutMs
      ? setTimeout(() => {
          stderr += `\n(killed after ${timeoutMs} ms)`;
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            child.kill('SIGKILL');
          }
        }, timeoutMs)
      : undefined;
    child.on('error', (error) => {
      clearTimeout(timer);
      resolvePromise({ code: -1, stdout, stderr: `${stderr}${error.message}`, ms: performance.now() - started });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? (signal ? 128 : -1), stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** Map `items` through async `fn`, at most `limit` at a time, keeping the order. */
export async function mapLimit(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
