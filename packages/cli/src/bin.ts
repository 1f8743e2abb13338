#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { COMMANDS } from './commands.js';
import { EXIT_USAGE, processIO } from './cli-io.js';

function usage(): string {
  const verbs = Object.entries(COMMANDS)
    .map(([name, c]) => `  ewp ${name.padEnd(12)} ${c.summary}`)
    .join('\n');
  return `usage: ewp <command> [options]\n\n${verbs}\n\nRun \`ewp <command> --help\` for a command's options.\n`;
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
  return (await command.load())(rest, io);
}

// A reader that goes away (`ewp eval --jsonl < big | head`) is the end of the job, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
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
