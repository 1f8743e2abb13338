import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ArmId } from '@ewp/harm-bench';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { isNotInstalled as notInstalled } from '../optional-package.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';

const HELP = `usage: ewp bench harm [--scenarios FILE] [--json OUT] [--svg OUT] [--arms LIST]

Run scenarios of drifting memory (docs/harm-bench.md) through the arms side by side and count,
per arm and per family: wrong actions (acted where the truth is hold), wrong irreversible
actions, needless holds (held where the truth is act) and confirmations asked.

  --scenarios FILE  one scenario per line (JSON); default: the committed set harm-v1.jsonl
  --json OUT        write the full report (totals, families, each scenario's decisions) as JSON
  --svg OUT         write the chart: wrong actions vs needless holds per arm
  --arms LIST       comma-separated subset of plain, mem0, zep, confidence, gate, gate_recheck

A progress line goes to stderr, the table to stdout. The arms run the real components: Mem0's
open-source Memory offline and the Zep client against a local Zep graph server (an arm whose
component cannot start is reported as not run).

The bench lives in the repository's private package @ewp/harm-bench: run it from a checkout
(it is not published with @ewp/cli).

Exit codes: 0 the run finished; 1 a scenario was refused (line and field on stderr) or an arm
failed; 2 bad arguments, or @ewp/harm-bench is not available.
`;

/** Writes `text` to `path` whole or not at all (a temporary file renamed over it). */
function writeWhole(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** `ewp bench harm`: the harm benchmark over a scenario file. */
export const benchCommand: Command = async (args: string[], io: CliIO): Promise<number> => {
  const parsed = parseVerbArguments('bench', HELP, io, () =>
    parseArgs({
      args,
      options: {
        scenarios: { type: 'string' },
        json: { type: 'string' },
        svg: { type: 'string' },
        arms: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: true,
    }),
  );
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || positionals[0] !== 'harm') return usageError('bench', 'the one benchmark is harm: ewp bench harm', io);
  let bench: typeof import('@ewp/harm-bench');
  try {
    bench = await import('@ewp/harm-bench');
  } catch (error) {
    if (!notInstalled(error)) throw error;
    io.stderr.write('ewp bench harm: @ewp/harm-bench is not available; it is private to the repository: run it from a checkout\n');
    return EXIT_USAGE;
  }
  let arms: ArmId[] | undefined;
  if (values.arms !== undefined) {
    const wanted = values.arms.split(',').map((a) => a.trim());
    const unknown = wanted.filter((a) => !(bench.ARM_IDS as readonly string[]).includes(a));
    if (unknown.length > 0 || wanted.length === 0)
      return usageError('bench', `--arms takes ${bench.ARM_IDS.join(', ')}; got ${JSON.stringify(values.arms)}`, io);
    arms = wanted as ArmId[];
  }
  const file = values.scenarios === undefined ? bench.COMMITTED_SCENARIOS : resolve(io.cwd, values.scenarios);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return usageError('bench', `cannot read --scenarios ${String(file)}: ${(error as Error).message}`, io);
  }
  let scenarios: import('@ewp/harm-bench').Scenario[];
  try {
    scenarios = bench.decodeScenarios(text);
  } catch (error) {
    if (!bench.ScenarioError.isInstance(error)) throw error;
    io.stderr.write(`ewp bench harm: refused (${error.code}) at line ${error.line}, ${error.path}: ${error.reason}\n`);
    return EXIT_SOME_FAILED;
  }
  const tty = io.stderr.isTTY === true;
  let shown = -1;
  const report = await bench.runBench(scenarios, {
    ...(arms === undefined ? {} : { arms }),
    onProgress: (done, total) => {
      // On a terminal one line rewritten in place; otherwise a line per tenth of the run.
      const step = Math.floor((done * 10) / total);
      if (tty) io.stderr.write(`\rewp bench harm: ${done}/${total} scenarios${done === total ? '\n' : ''}`);
      else if (step !== shown) {
        shown = step;
        io.stderr.write(`ewp bench harm: ${done}/${total} scenarios\n`);
      }
    },
  });
  io.stdout.write(bench.renderTable(report));
  if (values.json !== undefined) writeWhole(resolve(io.cwd, values.json), `${JSON.stringify(report, null, 2)}\n`);
  if (values.svg !== undefined) writeWhole(resolve(io.cwd, values.svg), bench.renderSvg(report));
  for (const s of report.skipped) io.stderr.write(`ewp bench harm: arm ${s.id} not run: ${s.reason}\n`);
  return report.skipped.length > 0 ? EXIT_SOME_FAILED : EXIT_OK;
};
