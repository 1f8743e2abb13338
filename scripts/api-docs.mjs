// The API reference: TypeDoc over every public package's exports (each `exports` entry's `@ewp/source`
// file, so no build is needed), written to docs/api/ (generated, not committed: `npm run docs:api`).
// As a check it fails on a broken {@link} and on an undocumented or unexported-but-referenced symbol
// that is not in the committed baseline docs/api-baseline.json (the debt as of when the check began:
// it may shrink, never grow). `--update-baseline` rewrites the baseline from this run.
//
//   node scripts/api-docs.mjs [--results FILE] [--update-baseline] [--no-html]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Application, LogLevel } from 'typedoc';
import { CheckResults } from './check-results.mjs';
import { publicPackages, ROOT } from './workspace.mjs';

const BASELINE = join(ROOT, 'docs/api-baseline.json');
export const OUT = join(ROOT, 'docs/api');

/** `[{ pkg, subpath, source }]`: every public entry point with its TypeScript source. */
export function apiEntryPoints() {
  const entries = [];
  for (const pkg of publicPackages()) {
    for (const [subpath, target] of Object.entries(pkg.manifest.exports ?? {})) {
      const source = target && typeof target === 'object' ? target['@ewp/source'] : undefined;
      if (typeof source === 'string' && source.endsWith('.ts')) entries.push({ pkg, subpath, source: join(pkg.path, source) });
    }
  }
  return entries;
}

/** Run TypeDoc; resolves `{ invalidLink: string[], notExported: string[], notDocumented: string[], errors: string[] }`. */
async function generate({ html }) {
  const entries = apiEntryPoints();
  const found = { invalidLink: [], notExported: [], notDocumented: [], errors: [] };
  const app = await Application.bootstrapWithPlugins({
    name: 'EWP for TypeScript',
    entryPoints: entries.map((e) => e.source),
    entryPointStrategy: 'resolve',
    tsconfig: join(ROOT, 'tsconfig.typedoc.json'),
    out: OUT,
    readme: 'none',
    excludePrivate: true,
    excludeInternal: true,
    skipErrorChecking: true,
    disableSources: true,
    githubPages: false,
    logLevel: LogLevel.Warn,
    // An export is what must be documented; the members of its inferred types (a zod schema's shape)
    // are not, or every refusal code of a schema would need a comment of its own.
    requiredToBeDocumented: ['Enum', 'Variable', 'Function', 'Class', 'Interface', 'TypeAlias'],
    // TypeDoc asks for documentation only in the packages named here (by default the root's).
    packagesRequiringDocumentation: [...new Set(entries.map((e) => e.pkg.name))],
    validation: { notExported: true, invalidLink: true, notDocumented: true, rewrittenLink: false, unusedMergeModuleWith: false },
    treatWarningsAsErrors: false,
  });
  // TypeDoc reports validation findings through its logger: sort them by kind.
  const logger = app.logger;
  const record = (message, level) => {
    const text = String(message)
      .replace(/\u001b\[[0-9;]*m/g, '')
      .replaceAll(`${ROOT}/`, '')
      .replace(/^\[warning\] /, '');
    if (/Failed to resolve link|could not be resolved|is not a valid link/i.test(text)) found.invalidLink.push(text);
    else if (/referenced by .* but not included in the documentation/i.test(text)) found.notExported.push(text);
    else if (/does not have any documentation/i.test(text)) found.notDocumented.push(text);
    else if (level === LogLevel.Error) found.errors.push(text);
  };
  logger.log = (message, level) => {
    if (level >= LogLevel.Warn) record(message, level);
  };
  const project = await app.convert();
  if (!project) {
    found.errors.push('TypeDoc could not convert the project');
    return found;
  }
  // Modules are named by their paths (packages/core/src); readers look for the import specifier.
  const bySource = new Map(entries.map((e) => [e.source.replace(/\.ts$/, '').replace(/\/index$/, ''), `${e.pkg.name}${e.subpath.slice(1)}`]));
  for (const mod of project.children ?? []) {
    const name = bySource.get(join(ROOT, mod.name));
    if (name) mod.name = name;
  }
  app.validate(project);
  if (html) await app.generateDocs(project, OUT);
  for (const k of Object.keys(found)) found[k] = [...new Set(found[k])].sort();
  return { ...found, entries: entries.length };
}

async function main() {
  const results = new CheckResults('API reference');
  const started = performance.now();
  const found = await generate({ html: !process.argv.includes('--no-html') });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (process.argv.includes('--update-baseline')) {
    const baseline = { notDocumented: found.notDocumented, notExported: found.notExported };
    writeFileSync(BASELINE, `${JSON.stringify(baseline, null, 2)}\n`);
    console.log(`wrote ${BASELINE}: ${found.notDocumented.length} undocumented, ${found.notExported.length} not exported`);
  }
  const baseline = JSON.parse(readFileSync(BASELINE, 'utf8'));
  const fresh = (kind) => found[kind].filter((m) => !baseline[kind].includes(m));
  const gone = (kind) => baseline[kind].filter((m) => !found[kind].includes(m));
  if (found.errors.length) results.fail('typedoc generates', found.errors.slice(0, 10).join('\n'));
  else results.pass('typedoc generates', `${found.entries} entry points in ${seconds} s`);
  if (found.invalidLink.length) results.fail('no broken links', `${found.invalidLink.length} broken {@link}s:\n${found.invalidLink.slice(0, 20).join('\n')}`);
  else results.pass('no broken links');
  for (const kind of ['notDocumented', 'notExported']) {
    const what = kind === 'notDocumented' ? 'documented exports' : 'referenced types exported';
    const added = fresh(kind);
    if (added.length) {
      results.fail(
        `${what} (no new ones beyond docs/api-baseline.json)`,
        `${added.length} new: add TSDoc (or export the type):\n${added.slice(0, 30).join('\n')}`,
      );
    } else {
      const fixed = gone(kind).length;
      results.pass(
        `${what} (no new ones beyond docs/api-baseline.json)`,
        `${found[kind].length} in the baseline${fixed ? `; ${fixed} fixed: run with --update-baseline to shrink it` : ''}`,
      );
    }
  }
  results.finish();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
