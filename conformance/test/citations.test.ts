/**
 * Every citation in the repository's code and docs resolves: `docs/spec/<doc>.md §N` names a file that
 * exists and a section heading numbered N in it, and a Markdown link to a local file points at a file
 * that exists. Nothing cites documents that are not in the repository (the upstream SPEC/STORES/DESIGN
 * files, a sibling `shared` folder) or an issue number instead of the reason itself.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repositoryFiles, repositoryRoot } from './repository-files.js';

const root = repositoryRoot;
const self = relative(root, fileURLToPath(import.meta.url));

/** Text files of the repository. */
function textFiles(): string[] {
  return repositoryFiles()
    .filter((f) => /\.(ts|mts|cts|js|mjs|cjs|md|json|yaml|yml)$/.test(f))
    .filter((f) => f !== 'pnpm-lock.yaml' && f !== self);
}

/** Mentions that cite something outside the repository, with what to write instead. */
const FORBIDDEN: { pattern: RegExp; instead: string }[] = [
  { pattern: /\bSTORES\.md\b/, instead: 'docs/spec/store-contract.md §N' },
  { pattern: /\bDESIGN\.md\b/, instead: 'the docs/spec document that holds the rule' },
  { pattern: /\bSPEC\b/, instead: 'docs/spec/protocol.md §N or docs/spec/receipts.md §N' },
  { pattern: /\.\.\/shared\b|\bshared\/(?:ewp|receipts)\b/, instead: 'a document inside the repository' },
  { pattern: /\bissues? #?\d+\b/i, instead: 'the reason itself' },
];

/** `docs/spec/protocol.md §8`, `store-contract.md §1.5, §3`, `receipts.md §2–§4`, `[protocol.md](protocol.md) §4`. */
const SECTION_CITATION = /((?:[\w./-]*\/)?[\w-]+\.md)\)?((?:\s*(?:,|–|-|and|or)?\s*§\s*\d+(?:\.\d+)*)+)/g;
const SECTION_NUMBER = /§\s*(\d+(?:\.\d+)*)/g;
/** `[text](target)` with a local target. */
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;

const headingsCache = new Map<string, Set<string>>();
/** Section numbers a Markdown document declares in its headings (`## 5.`, `### 5.4 …`). */
function sectionsOf(path: string): Set<string> {
  let sections = headingsCache.get(path);
  if (!sections) {
    sections = new Set();
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      const m = /^#{1,6}\s+(\d+(?:\.\d+)*)[.\s]/.exec(line);
      if (m) sections.add(m[1] as string);
    }
    headingsCache.set(path, sections);
  }
  return sections;
}

/** Where a cited document is: relative to the citing file, or to the repository root, or in docs/spec. */
function resolveDocument(file: string, cited: string): string | undefined {
  const candidates = [join(root, dirname(file), cited), join(root, cited), join(root, 'docs', 'spec', cited)];
  return candidates.find((c) => existsSync(c));
}

interface Problem {
  where: string;
  problem: string;
}

function scan(): { problems: Problem[]; citations: number } {
  const problems: Problem[] = [];
  let citations = 0;
  for (const file of textFiles()) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      const where = `${file}:${index + 1}`;
      for (const { pattern, instead } of FORBIDDEN) {
        const m = pattern.exec(line);
        if (m) problems.push({ where, problem: `cites ${JSON.stringify(m[0])} (not in this repository): write ${instead}` });
      }
      for (const m of line.matchAll(SECTION_CITATION)) {
        const cited = m[1] as string;
        // Only citations of this repository's Markdown documents; a bare "§" elsewhere is prose.
        const path = resolveDocument(file, cited);
        citations++;
        if (!path) {
          problems.push({ where, problem: `cites ${cited}, which does not exist` });
          continue;
        }
        for (const n of (m[2] as string).matchAll(SECTION_NUMBER)) {
          if (!sectionsOf(path).has(n[1] as string)) problems.push({ where, problem: `cites ${cited} §${n[1]}, which has no such section` });
        }
      }
      if (file.endsWith('.md')) {
        for (const m of line.matchAll(MARKDOWN_LINK)) {
          const target = (m[1] as string).split('#')[0] as string;
          if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
          citations++;
          if (!existsSync(join(root, dirname(file), decodeURIComponent(target)))) problems.push({ where, problem: `links to ${target}, which does not exist` });
        }
      }
    });
  }
  return { problems, citations };
}

describe('citations', () => {
  it('every citation resolves to a file and section of this repository', () => {
    const { problems, citations } = scan();
    // For counting and fixing in bulk: EWP_CITATIONS_REPORT=<file> writes the problems as JSON lines.
    if (process.env.EWP_CITATIONS_REPORT) writeFileSync(process.env.EWP_CITATIONS_REPORT, problems.map((p) => JSON.stringify(p)).join('\n'));
    expect(citations).toBeGreaterThan(100);
    expect(problems.map((p) => `${p.where}: ${p.problem}`)).toEqual([]);
  });
});
