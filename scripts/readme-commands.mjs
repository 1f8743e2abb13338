// Every shell command in the READMEs runs as written: each ```sh (bash, shell, console) block of the root
// README, packages/*/README.md and conformance/README.md is read line by line (comments dropped, `\`
// continuations joined) and every command is checked by what it is:
//
// - `ewp ...`, `npx -y @ewp/cli ...`, `node packages/cli/dist/bin.js ...`: run with the built CLI, in a
//   fresh directory per README (the root README's sees the repository's `conformance/` and `examples/`),
//   in README order, through `sh -c` so redirections work. A command that serves or opens a browser
//   (LONG_RUNNING) is checked with `--help` instead; `serve` on stdio runs with stdin closed (it ends).
// - `npm install`, `pnpm add`: every package named is a public package of this workspace or one a
//   workspace package depends on (the registry is not asked; the README snippets' installs really run
//   in scripts/readme-snippets.mjs).
// - `npm run X`, `npm test`, `pnpm --filter P S`: the script exists (running quickstart or the whole
//   suite here would take minutes); the root scripts in RUN_HERE run, and must pass.
// - `pnpm exec vitest run --project P`: P is a vitest project.
// Anything else fails: add a rule here rather than let a command go unchecked.
//
//   node scripts/readme-commands.mjs [--results FILE]   packages/cli must be built
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckResults } from './check-results.mjs';
import { run } from './run-process.mjs';
import { publicPackages, ROOT, workspacePackages } from './workspace.mjs';

/** Root scripts the README names that run here, as a user runs them (quick, and nothing else runs them): why. */
const RUN_HERE = { examples: 'every example under examples/, offline, each ending with what it decided' };

/** CLI verbs that serve or open a browser: checked with `<verb> --help`, not run. */
const LONG_RUNNING = [/^inspect\b/, /\bserve\b.*--http\b/];

/**
 * Files a README's commands take as the user's own input (the README names them, the user has them):
 * README → { file: repository path of a file of that shape }.
 */
const USER_FILES = {
  'packages/cli/README.md': { 'views.json': 'conformance/pack/fixtures/08-verified-now.json', 'view.json': 'conformance/pack/fixtures/08-verified-now.json' },
};

/** `[{ readme, commands: string[] }]` for every README with shell blocks. */
export function readmeCommands() {
  const readmes = ['README.md', ...readdirSync(join(ROOT, 'packages')).map((d) => `packages/${d}/README.md`), 'conformance/README.md'];
  const out = [];
  for (const readme of readmes.filter((f) => existsSync(join(ROOT, f)))) {
    const text = readFileSync(join(ROOT, readme), 'utf8');
    const commands = [];
    for (const block of text.matchAll(/```(?:sh|bash|shell|console)\n([\s\S]*?)```/g)) {
      for (const raw of block[1].replace(/\\\n\s*/g, ' ').split('\n')) {
        const line = raw
          .replace(/^\$ /, '')
          .replace(/\s+#\s.*$/, '')
          .trim();
        if (line && !line.startsWith('#')) commands.push(line);
      }
    }
    if (commands.length) out.push({ readme, commands });
  }
  return out;
}

const knownPackages = () => {
  const names = new Set(publicPackages().map((p) => p.name));
  for (const p of workspacePackages()) {
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const n of Object.keys(p.manifest[field] ?? {})) names.add(n);
    }
  }
  return names;
};
/** Packages a README may name that no workspace package depends on, and why they are right. */
const NAMED_ELSEWHERE = {
  '@openai/agents': 'the OpenAI Agents SDK itself, which brings the @openai/agents-core the binding peers on',
};
const bareName = (spec) => (spec.startsWith('@') ? `@${spec.slice(1).split('@')[0]}` : spec.split('@')[0]);

/** The CLI arguments of a command that runs `ewp`, or undefined. */
function ewpArgs(command) {
  const m = /^(?:ewp|npx -y @ewp\/cli|npx @ewp\/cli|node packages\/cli\/dist\/bin\.js)(\s.*)?$/.exec(command);
  return m ? (m[1] ?? '').trim() : undefined;
}

async function checkCommand(command, cwd, known, rootScripts) {
  const args = ewpArgs(command);
  if (args !== undefined) {
    const bin = join(ROOT, 'packages/cli/dist/bin.js');
    const verb = args.split(/\s+/)[0];
    if (LONG_RUNNING.some((r) => r.test(args))) {
      const r = await run(process.execPath, [bin, verb, '--help'], { cwd, timeoutMs: 30_000 });
      if (r.code !== 0) throw new Error(`ewp ${verb} --help exited ${r.code}: ${r.stderr.trim().slice(0, 300)}`);
      return `long-running: ewp ${verb} --help exits 0`;
    }
    // Closed stdin unless the command redirects its own: `serve` on stdio then ends at once.
    const stdin = /(^|\s)<\s/.test(args) ? '' : ' < /dev/null';
    const r = await run('sh', ['-c', `node ${JSON.stringify(bin)} ${args}${stdin}`], { cwd, timeoutMs: 60_000 });
    if (r.code !== 0) throw new Error(`exited ${r.code}: ${`${r.stderr}\n${r.stdout}`.trim().split('\n').slice(-4).join(' | ')}`);
    return `ran in ${(r.ms / 1000).toFixed(1)} s`;
  }
  const install = /^(?:npm (?:install|i)|pnpm add)\s+(.*)$/.exec(command);
  if (install) {
    const names = install[1]
      .split(/\s+/)
      .filter((w) => !w.startsWith('-'))
      .map(bareName);
    const unknown = names.filter((n) => !known.has(n) && !NAMED_ELSEWHERE[n]);
    if (unknown.length)
      throw new Error(`installs ${unknown.join(', ')}, which no workspace package is or depends on (a typo? or add it to NAMED_ELSEWHERE with why)`);
    return `packages known: ${names.join(', ')}`;
  }
  const script = /^npm (?:run (\S+)|(test))$/.exec(command);
  if (script) {
    const name = script[1] ?? script[2];
    if (!rootScripts[name]) throw new Error(`the root package.json has no script "${name}"`);
    if (RUN_HERE[name] === undefined) return `root script "${name}" exists (not run here)`;
    const r = await run('npm', ['run', '--silent', name], { cwd: ROOT, timeoutMs: 600_000 });
    const last = r.stdout.trim().split('\n').at(-1) ?? '';
    if (r.code !== 0)
      throw new Error(
        `exited ${r.code}: ${last}\n${r.stdout
          .split('\n')
          .filter((l) => /^FAIL/.test(l))
          .join('\n')}${r.stderr.trim().slice(-800)}`,
      );
    return `ran ${RUN_HERE[name]}: ${last}`;
  }
  const filter = /^pnpm --filter (\S+) (\S+)/.exec(command);
  if (filter) {
    const pkg = workspacePackages().find((p) => p.name === filter[1]);
    if (!pkg?.manifest.scripts?.[filter[2]]) throw new Error(`${filter[1]} has no script "${filter[2]}"`);
    return `script "${filter[2]}" of ${filter[1]} exists (long-running, not run here)`;
  }
  const vitest = /^pnpm exec vitest run --project (\S+)$/.exec(command);
  if (vitest) {
    if (!workspacePackages().some((p) => p.name === vitest[1] && existsSync(join(p.path, 'vitest.config.ts')))) {
      throw new Error(`no vitest project ${vitest[1]}`);
    }
    return `vitest project ${vitest[1]} exists`;
  }
  throw new Error('no rule checks this command: add one to scripts/readme-commands.mjs');
}

async function main() {
  const results = new CheckResults('README commands');
  const known = knownPackages();
  const rootScripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
  const scratch = mkdtempSync(join(tmpdir(), 'ewp-readme-commands-'));
  try {
    for (const { readme, commands } of readmeCommands()) {
      const cwd = mkdtempSync(join(scratch, 'readme-'));
      if (readme === 'README.md') {
        for (const dir of ['conformance', 'examples', 'packages']) symlinkSync(join(ROOT, dir), join(cwd, dir));
      }
      for (const [file, from] of Object.entries(USER_FILES[readme] ?? {})) writeFileSync(join(cwd, file), readFileSync(join(ROOT, from)));
      for (const command of commands) {
        await results.check(`${readme}: ${command}`, () => checkCommand(command, cwd, known, rootScripts));
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  results.finish();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
