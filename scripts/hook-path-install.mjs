// The Claude Code hook path installed as a user installs it: `npm install --ignore-scripts` of a packed
// @ewp/cli (or @ewp/claude-code) ALONE in a fresh project (no native build runs, as with npm 11's default
// of refusing install scripts), then one `ewp hook pre-tool-use` call that must answer. Prints the
// install's time, package count and size, and the hook's per-call time over a SQLite and a JSON-file
// ledger; fails when the hook does not answer, so a heavy or native dependency back on the path is caught.
//
//   node scripts/hook-path-install.mjs [--calls N] [--history N] [--keep 1] [--results FILE]   packages must be built
// --history N records N more hook decisions after the first timed calls, then times `--calls` calls again:
// the per-call time must not grow with the decisions a ledger holds (each call records one).
// Run it under the Node you measure (put that Node's folder first on PATH: npm runs under it too).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckResults, option } from './check-results.mjs';
import { hasNodeSqlite } from './node-sqlite.mjs';
import { packPackages } from './pack-packages.mjs';
import { run } from './run-process.mjs';
import { publicPackages } from './workspace.mjs';

/** The packages measured: the CLI (the hook's command) and the binding a Claude Agent SDK app imports. */
const TARGETS = ['@ewp/cli', '@ewp/claude-code'];

/** Packages (directories holding a package.json) and bytes under node_modules, nested ones included. */
function treeSize(dir) {
  let packages = 0;
  let bytes = 0;
  const walk = (d, inModules) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        const isPackage = inModules && !entry.name.startsWith('@') && !entry.name.startsWith('.');
        if (isPackage) packages += 1;
        walk(path, entry.name === 'node_modules' || (inModules && entry.name.startsWith('@')));
      } else bytes += statSync(path).size;
    }
  };
  walk(join(dir, 'node_modules'), true);
  return { packages, bytes };
}

/** A fresh project depending on `name` only; every @ewp package comes from the tarballs packed here. */
function project(scratch, name, tarballs) {
  const dir = join(scratch, name.replace(/[@/]/g, '_'));
  mkdirSync(dir, { recursive: true });
  const local = Object.fromEntries([...tarballs].map(([n, t]) => [n, `file:${t}`]));
  const manifest = { name: 'user-project', version: '1.0.0', private: true, type: 'module', dependencies: { [name]: local[name] }, overrides: local };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return dir;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * One hook call's answer and the median wall time of `calls` calls, over the ledger `ledgerArgs` names
 * (created first with `ewp store`, as a user's first observation would); with `history`, also the median
 * of `calls` more after `history` further recorded calls.
 */
async function hookCalls(dir, ledgerArgs, calls, history) {
  const bin = join(dir, 'node_modules', '@ewp', 'cli', 'dist', 'bin.js');
  writeFileSync(
    join(dir, 'ewp-tools.json'),
    JSON.stringify({ unmapped: 'ask', tools: [{ match: 'Bash', proposition: 'P-shell-allowed', action: { kind: 'shell', risk: 'medium' } }] }),
  );
  const stdin = JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 's',
    cwd: dir,
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
    tool_use_id: 't',
  });
  const created = await run(process.execPath, [bin, 'store', 'the shell is allowed here', '--class', 'observation', ...ledgerArgs], { cwd: dir });
  let answer;
  const timed = (n) => {
    const times = [];
    for (let i = 0; i < n; i += 1) {
      const started = performance.now();
      const out = execFileSync(process.execPath, [bin, 'hook', 'pre-tool-use', '--map', 'ewp-tools.json', ...ledgerArgs], {
        cwd: dir,
        input: stdin,
        encoding: 'utf8',
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      times.push(performance.now() - started);
      answer = JSON.parse(out).hookSpecificOutput;
    }
    return times;
  };
  const times = timed(calls);
  let later;
  if (history > 0) {
    timed(history);
    later = median(timed(calls));
  }
  const loaded = loadedPackages(dir, [bin, 'hook', 'pre-tool-use', '--map', 'ewp-tools.json', ...ledgerArgs], stdin);
  return {
    created: created.code === 0 ? 'created' : `ewp store exited ${created.code}: ${created.stderr.trim().split('\n')[0]}`,
    answer,
    ms: median(times),
    later,
    loaded,
  };
}

/** What the hook must not load: the tool registry's schemas and the MCP server's packages (each call pays for them). */
const OFF_THE_HOOK_PATH = ['zod', '@modelcontextprotocol/sdk', 'ajv'];

/** The packages (under node_modules) whose ES modules one run of `node args` loads, read with a module load hook. */
function loadedPackages(dir, args, input) {
  const log = join(dir, 'loaded-modules.txt');
  writeFileSync(log, '');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  execFileSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, ...args], {
    cwd: dir,
    input,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const names = new Set();
  for (const url of readFileSync(log, 'utf8').split('\n')) {
    const rest = url.split('/node_modules/').at(-1);
    if (rest === url || rest === '') continue;
    const parts = rest.split('/');
    names.add(parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
  }
  return [...names].sort();
}

/** Whether the answer is the gate's (any decision) rather than the hook failing to run or to open the ledger. */
const gateAnswered = (answer) => answer !== undefined && !/the hook failed|unusable ledger|no ledger at/.test(answer.permissionDecisionReason);

export async function main() {
  const results = new CheckResults(`hook path installed with npm --ignore-scripts on Node ${process.versions.node}`);
  const calls = Number(option('calls') ?? 20);
  const history = Number(option('history') ?? 0);
  const scratch = mkdtempSync(join(tmpdir(), 'ewp-hook-install-'));
  try {
    mkdirSync(join(scratch, 'tarballs'));
    const packed = await packPackages(publicPackages(), join(scratch, 'tarballs'));
    const tarballs = new Map(packed.map((p) => [p.pkg.name, p.tarball]));
    for (const name of TARGETS) {
      const dir = project(scratch, name, tarballs);
      const env = { ...process.env, npm_config_yes: 'true', NODE_PATH: '' };
      delete env.npm_config_prefix;
      const install = await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: dir, env, timeoutMs: 600_000 });
      if (install.code !== 0) {
        results.fail(`npm install --ignore-scripts: ${name}`, `exited ${install.code}: ${install.stderr.trim().split('\n').slice(-4).join(' | ')}`);
        continue;
      }
      const { packages, bytes } = treeSize(dir);
      results.pass(`npm install --ignore-scripts: ${name}`, `${(install.ms / 1000).toFixed(1)} s, ${packages} packages, ${(bytes / 1e6).toFixed(1)} MB`);
      if (name !== '@ewp/cli') continue;
      // The optional peers are not installed: the commands that need them say what to install, exit 2.
      const bin = join(dir, 'node_modules', '@ewp', 'cli', 'dist', 'bin.js');
      // better-sqlite3 is an optional peer too: without node:sqlite, a SQLite ledger says to install it.
      const sqlitePeer = hasNodeSqlite() ? [] : [['better-sqlite3', ['store', 'a note', '--class', 'observation', '--db', 'ewp.sqlite']]];
      for (const [pkg, args] of [
        ['@ewp/postgres', ['audit', 'verify', '--pg', 'postgres://127.0.0.1:5432/test']],
        ['@ewp/inspect', ['inspect', '--json-dir', 'ledger']],
        ['@ewp/conformance', ['conformance']],
        ...sqlitePeer,
      ]) {
        const r = await run(process.execPath, [bin, ...args], { cwd: dir, timeoutMs: 60_000 });
        const said = r.stderr.trim().split('\n')[0];
        if (r.code === 2 && said.includes(`npm install ${pkg}`)) results.pass(`ewp ${args[0]} without ${pkg}`, `exit 2: ${said}`);
        else results.fail(`ewp ${args[0]} without ${pkg}`, `expected exit 2 naming \`npm install ${pkg}\`, got exit ${r.code}: ${said}`);
      }
      for (const [label, ledgerArgs] of [
        ['SQLite ledger (--db)', ['--db', 'ewp.sqlite']],
        ['JSON-file ledger (--json-dir)', ['--json-dir', 'ledger']],
      ]) {
        if (ledgerArgs[0] === '--db' && !hasNodeSqlite()) {
          results.skip(
            `ewp hook pre-tool-use answers, ${label}`,
            `Node ${process.versions.node} has no node:sqlite the store runs on, and better-sqlite3 (an optional peer) is not installed`,
          );
          continue;
        }
        const r = await hookCalls(dir, ledgerArgs, calls, history);
        const after = r.later === undefined ? '' : `; median ${r.later.toFixed(0)} ms of ${calls} calls after ${history} more recorded decisions`;
        const detail = `${r.answer?.permissionDecision}: ${r.answer?.permissionDecisionReason.slice(0, 160)}; median ${r.ms.toFixed(0)} ms of ${calls} calls (ledger ${r.created})${after}`;
        if (gateAnswered(r.answer)) results.pass(`ewp hook pre-tool-use answers, ${label}`, detail);
        else results.fail(`ewp hook pre-tool-use answers, ${label}`, detail);
        const heavy = r.loaded.filter((n) => OFF_THE_HOOK_PATH.includes(n));
        if (heavy.length === 0) results.pass(`ewp hook pre-tool-use loads no ${OFF_THE_HOOK_PATH.join(', ')}, ${label}`, `loads ${r.loaded.join(', ')}`);
        else
          results.fail(
            `ewp hook pre-tool-use loads no ${OFF_THE_HOOK_PATH.join(', ')}, ${label}`,
            `loads ${heavy.join(', ')} (of ${r.loaded.join(', ')}): import the gate from @ewp/tools/gate, not the tool registry`,
          );
      }
    }
  } catch (error) {
    results.fail('hook path install', error.message);
  } finally {
    // --keep leaves the projects for a closer look (timing the hook with another tool).
    if (option('keep') === undefined) rmSync(scratch, { recursive: true, force: true });
    else console.log(`projects kept in ${scratch}`);
  }
  results.finish();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
