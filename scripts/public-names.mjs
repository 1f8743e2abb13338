// Public names per package, and how many of them nothing outside the package names: a
// count to read before and after pruning a public entry, not a gate.
//
//   node scripts/public-names.mjs                  one line per public package, then the totals
//   node scripts/public-names.mjs --list           also list the names never named outside
//   node scripts/public-names.mjs --only @ewp/a,@ewp/b
//
// A package's public names are the exports of each `exports` entry's `@ewp/source` file, as the
// TypeScript checker resolves them (so `export *` counts); a name re-exported from another workspace
// package is counted with the package that defines it, not again. A value is a runtime export (a
// function, class, const); a type is an interface or type alias, or a class exported with `export type`.
// "Named outside" means the word occurs in a code file of another package or of conformance/,
// examples/, scripts/, bench/ that mentions the package's specifier (`@ewp/<name>` or a subpath), or
// in a code span or fenced block of a Markdown file outside the package (docs/, READMEs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { flag, option } from './check-results.mjs';
import { publicPackages, ROOT, workspacePackages } from './workspace.mjs';

const LIST = flag('list');
const only = option('only')?.split(',');

const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'api', 'coverage', '.turbo', '.git', 'vectors', 'results']);
const SKIP_FILES = new Set(['CHANGELOG.md']);

/** Every searchable file under the roots the issue names: `{ rel, text, code }`. */
function corpus() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(full);
      } else if ((CODE.test(entry.name) || entry.name.endsWith('.md')) && !SKIP_FILES.has(entry.name) && !entry.name.endsWith('.api.md')) {
        if (statSync(full).size > 2_000_000) continue;
        files.push({ rel: relative(ROOT, full).split(sep).join('/'), text: readFileSync(full, 'utf8'), code: CODE.test(entry.name) });
      }
    }
  };
  for (const root of ['packages', 'conformance', 'examples', 'scripts', 'bench', 'docs']) walk(join(ROOT, root));
  files.push({ rel: 'README.md', text: readFileSync(join(ROOT, 'README.md'), 'utf8'), code: false });
  return files;
}

/** The words a file names: all of a code file, the code spans and fenced blocks of a Markdown file. */
function wordsOf(file) {
  let text = file.text;
  if (!file.code) {
    const spans = [];
    for (const m of text.matchAll(/```[^\n]*\n([\s\S]*?)```|`([^`\n]+)`/g)) spans.push(m[1] ?? m[2]);
    text = spans.join('\n');
  }
  return new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);
}

const packages = workspacePackages();
/** The workspace package a repository-relative path belongs to (the deepest package directory). */
function ownerOf(rel) {
  let best;
  for (const p of packages) if ((rel === p.dir || rel.startsWith(`${p.dir}/`)) && (!best || p.dir.length > best.dir.length)) best = p;
  return best;
}

const files = corpus().map((f) => ({
  ...f,
  owner: ownerOf(f.rel)?.name,
  words: wordsOf(f),
  specifiers: new Set([...f.text.matchAll(/['"`](@ewp\/[\w-]+)(?:\/[\w/.-]*)?['"`]/g)].map((m) => m[1])),
}));

/** Whether a file outside `pkg` names `name` as the issue counts it. */
function namedOutside(pkg, name) {
  return files.some((f) => f.owner !== pkg.name && f.words.has(name) && (!f.code || f.specifiers.has(pkg.name)));
}

// ---- the exports, as the checker resolves them ----------------------------------------------------

const entries = [];
for (const pkg of publicPackages()) {
  if (only && !only.includes(pkg.name)) continue;
  for (const [subpath, target] of Object.entries(pkg.manifest.exports ?? {})) {
    const source = target && typeof target === 'object' ? target['@ewp/source'] : undefined;
    if (typeof source === 'string' && source.endsWith('.ts')) entries.push({ pkg, subpath, source: join(pkg.path, source) });
  }
}
const config = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), ts.sys.readFile).config, ts.sys, ROOT);
const program = ts.createProgram(
  entries.map((e) => e.source),
  { ...config.options, noEmit: true, types: ['node'] },
);
const checker = program.getTypeChecker();

function isTypeOnlyExport(symbol) {
  for (const d of symbol.declarations ?? []) {
    if (ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) return true;
  }
  return false;
}

/** `{ name, kind: 'value' | 'type', origin }` for each export of one entry file. */
function exportsOf(entry) {
  const file = program.getSourceFile(entry.source);
  const moduleSymbol = file && checker.getSymbolAtLocation(file);
  if (!moduleSymbol) throw new Error(`${relative(ROOT, entry.source)}: not a module the checker can read`);
  return checker.getExportsOfModule(moduleSymbol).map((symbol) => {
    const resolved = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const decl = resolved.declarations?.[0];
    const value = (resolved.flags & ts.SymbolFlags.Value) !== 0 && !isTypeOnlyExport(symbol);
    const origin = decl ? ownerOf(relative(ROOT, decl.getSourceFile().fileName).split(sep).join('/'))?.name : undefined;
    return { name: symbol.name, kind: value ? 'value' : 'type', origin };
  });
}

// ---- the count ------------------------------------------------------------------------------------

const byPackage = new Map();
for (const entry of entries) {
  const row = byPackage.get(entry.pkg.name) ?? { pkg: entry.pkg, names: new Map(), reexported: new Set() };
  byPackage.set(entry.pkg.name, row);
  for (const e of exportsOf(entry)) {
    if (e.origin && e.origin !== entry.pkg.name) row.reexported.add(e.name);
    else if (!row.names.has(e.name)) row.names.set(e.name, e);
  }
}

const pad = (s, n) => String(s).padEnd(n);
const total = { values: 0, types: 0, unusedValues: 0, unusedTypes: 0, reexported: 0 };
console.log(`${pad('package', 28)}${pad('values', 8)}${pad('unused', 8)}${pad('types', 8)}${pad('unused', 8)}re-exported`);
for (const { pkg, names, reexported } of byPackage.values()) {
  const all = [...names.values()];
  const values = all.filter((e) => e.kind === 'value');
  const types = all.filter((e) => e.kind === 'type');
  const unusedValues = values.filter((e) => !namedOutside(pkg, e.name));
  const unusedTypes = types.filter((e) => !namedOutside(pkg, e.name));
  total.values += values.length;
  total.types += types.length;
  total.unusedValues += unusedValues.length;
  total.unusedTypes += unusedTypes.length;
  total.reexported += reexported.size;
  console.log(
    `${pad(pkg.name, 28)}${pad(values.length, 8)}${pad(unusedValues.length, 8)}${pad(types.length, 8)}${pad(unusedTypes.length, 8)}${reexported.size}`,
  );
  if (LIST) {
    if (unusedValues.length)
      console.log(
        `  values never named outside: ${unusedValues
          .map((e) => e.name)
          .sort()
          .join(', ')}`,
      );
    if (unusedTypes.length)
      console.log(
        `  types never named outside: ${unusedTypes
          .map((e) => e.name)
          .sort()
          .join(', ')}`,
      );
  }
}
console.log(`${pad('total', 28)}${pad(total.values, 8)}${pad(total.unusedValues, 8)}${pad(total.types, 8)}${pad(total.unusedTypes, 8)}${total.reexported}`);
console.log(
  `${total.values + total.types} public names (${total.values} values, ${total.types} types); never named outside their package: ${total.unusedValues} values, ${total.unusedTypes} types`,
);
