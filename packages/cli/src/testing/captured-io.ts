import { PassThrough } from 'node:stream';
import type { CliIO } from '../cli-io.js';

/** What a command run in-process returned and wrote. */
export interface CapturedRun {
  code: number;
  /** stdout as UTF-8 text. */
  stdout: string;
  /** stdout as written (for byte-exact output such as EBCJ-1). */
  stdoutBytes: Buffer;
  stderr: string;
}

export interface CaptureOptions {
  /** Written to stdin, then stdin ends; without it stdin stays open and empty. */
  stdin?: string | Buffer;
  cwd?: string;
  /** Make stderr claim to be a terminal (progress output). */
  stderrIsTTY?: boolean;
  /** The command's environment (default: empty). */
  env?: NodeJS.ProcessEnv;
}

/** Run a verb of the `ewp` command against in-memory streams and collect its exit code and output. */
export async function runCaptured(run: (io: CliIO) => Promise<number>, options: CaptureOptions = {}): Promise<CapturedRun> {
  const input = new PassThrough();
  const out = new PassThrough();
  const err = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (options.stderrIsTTY) err.isTTY = true;
  const outChunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  out.on('data', (c: Buffer) => outChunks.push(c));
  err.on('data', (c: Buffer) => errChunks.push(c));
  if (options.stdin !== undefined) input.end(options.stdin);
  const code = await run({ stdin: input, stdout: out, stderr: err, env: options.env ?? {}, cwd: options.cwd ?? process.cwd() });
  const stdoutBytes = Buffer.concat(outChunks);
  return { code, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr: Buffer.concat(errChunks).toString('utf8') };
}
