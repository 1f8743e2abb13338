/** A fault-test worker running as a child process, with its stdout collected line by line. */
import { type ChildProcess, spawn } from 'node:child_process';

export interface RunningWorker {
  child: ChildProcess;
  /** The exit code (null when killed by a signal). */
  done: Promise<number | null>;
  lines: string[];
  exited: boolean;
}

/** Start the bundled `worker` with `args`; its stderr is echoed only when it fails. */
export function startWorker(worker: string, args: string[]): RunningWorker {
  const child = spawn(process.execPath, [worker, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const proc: RunningWorker = { child, done: Promise.resolve(null), lines, exited: false };
  proc.done = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      proc.exited = true;
      if (code !== 0 && code !== null) process.stderr.write(stderr);
      resolve(code);
    }),
  );
  return proc;
}

/** Resolve once `predicate` holds for the worker's output, or the worker has exited. */
export function untilOutput(proc: RunningWorker, predicate: (lines: string[]) => boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (proc.exited || predicate(proc.lines)) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
}
