#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import nodeModule from 'node:module';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { undecodableArgument } from './argv-text.js';
import { COMMANDS } from './commands.js';
import { EXIT_USAGE, processIO } from './cli-io.js';
import { missingPackageName, PackageNotInstalledError } from './optional-package.js';

// Node >= 22.1 keeps V8's compiled code of the modules loaded from here on in its on-disk cache
// (os.tmpdir(); NODE_DISABLE_COMPILE_CACHE=1 turns it off): `ewp hook` is a process per tool call,
// and each call after the first then skips compiling the gate's packages. Absent on Node 20.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

function usage(): string {
  const verbs = Object.entries(COMMANDS)
    .map(([name, c]) => `  ewp ${name.padEnd(12)} ${c.summary}`)
    .join('\n');
  return `usage: ewp <command> [options]\n\n${verbs}\n\nRun \`ewp <command> --help\` for a command's options.\n`;
}

/** Young generation (both semi-spaces) beyond which a streaming command stops growing it. */
const YOUNG_GENERATION_BYTES = 8 * 1024 * 1024;

/**
 * Let V8 grow its young generation to {@link YOUNG_GENERATION_BYTES} (it starts at 2 MB and by
 * default doubles up to 32 MB under load), then stop it: after each garbage collection, until that
 * size is reached, check it and set the growth factor to 1 (the only sizing flag V8 honours after
 * it starts; `--max-semi-space-size` set here has no effect). A smaller cap costs CPU per call (a
 * loop turn's in-flight requests and replies outgrow the semi-spaces and get promoted), and `ewp eval
 * <file>` is left uncapped (one huge view's records would be promoted early). The measurements behind
 * the size are in docs/performance.md, "Memory".
 */
function capYoungGeneration(): void {
  const youngBytes = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
  const observer = new PerformanceObserver(() => {
    if (youngBytes() < YOUNG_GENERATION_BYTES) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  const io = processIO();
  if (verb === undefined || verb === '--help' || verb === '-h' || verb === 'help') {
    io.stdout.write(usage());
    return verb === undefined ? EXIT_USAGE : 0;
  }
  if (verb === '--version' || verb === '-V' || verb === 'version') {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
    io.stdout.write(`${pkg.name} ${pkg.version}\n`);
    return 0;
  }
  const command = COMMANDS[verb];
  if (!command) {
    io.stderr.write(`ewp: unknown command ${JSON.stringify(verb)}\n\n${usage()}`);
    return EXIT_USAGE;
  }
  // Before any verb runs: an argument Node decoded with replacement characters is refused, never stored.
  const undecodable = command.answersUndecodableArguments ? undefined : undecodableArgument(rest);
  if (undecodable !== undefined) {
    io.stderr.write(`ewp ${verb}: ${undecodable}\n`);
    return EXIT_USAGE;
  }
  if (command.streams?.(rest)) capYoungGeneration();
  if (command.finishesWhenOutputCloses) endsWithReader = false;
  try {
    return await (await command.load())(rest, io);
  } catch (error) {
    // An optional peer (@ewp/postgres, @ewp/inspect, @ewp/conformance) the verb imports is missing: say
    // what to install, exit 2. A verb's own module importing it statically fails to load the same way.
    const missing = PackageNotInstalledError.isInstance(error) ? error : notInstalledError(error, 'this command');
    if (missing === undefined) throw error;
    io.stderr.write(`ewp ${verb}: ${missing.message}\n`);
    return EXIT_USAGE;
  }
}

/** The typed error for a loader error that names a missing package, or undefined for any other error. */
function notInstalledError(error: unknown, neededFor: string): PackageNotInstalledError | undefined {
  const name = missingPackageName(error);
  return name === undefined ? undefined : new PackageNotInstalledError(name, neededFor, error);
}

/** Whether a reader that goes away ends the run (every verb but those that finish their job and report it). */
let endsWithReader = true;

// A reader that goes away (`ewp eval --jsonl < big | head`) is the end of the job, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // The verb's own OutputSink saw it too, and reports it when the job is done.
  if (!endsWithReader) return;
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`ewp: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);
