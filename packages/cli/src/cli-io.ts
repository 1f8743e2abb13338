/** The streams and environment a command runs against; tests pass their own. */
export interface CliIO {
  stdin: NodeJS.ReadableStream;
  /**
   * `stdin` is the process's own standard input, not yet opened: a verb that reads file descriptor 0
   * its own way (`ewp serve`) does so instead of reading `stdin`, so two handles never hold the descriptor.
   */
  processStdin?: boolean;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** A verb of the `ewp` command. Returns the process exit code. */
export type Command = (args: string[], io: CliIO) => Promise<number>;

/** Exit codes shared by every verb. */
export const EXIT_OK = 0;
/** Some inputs were refused (others may have succeeded). */
export const EXIT_SOME_FAILED = 1;
/** Unusable arguments, store or environment. */
export const EXIT_USAGE = 2;

export function processIO(): CliIO {
  return {
    // Opened on first use: `process.stdin` takes a handle on descriptor 0 as soon as it is read.
    get stdin() {
      return process.stdin;
    },
    processStdin: true,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  };
}
