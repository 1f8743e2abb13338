// Counted results of the scripted checks (package quality, installs as a user, runtime lanes), so
// scripts/test-all.mjs can add them to its closing `N passed, N failed` line.
import { writeFileSync } from 'node:fs';

/** A list of named results; `fail` messages say what to fix. */
export class CheckResults {
  constructor(title) {
    this.title = title;
    /** @type {{ name: string, status: 'passed' | 'failed' | 'skipped', detail: string }[]} */
    this.results = [];
  }

  pass(name, detail = '') {
    this.results.push({ name, status: 'passed', detail });
    console.log(`  ok    ${name}${detail ? `  (${detail})` : ''}`);
  }

  fail(name, detail) {
    this.results.push({ name, status: 'failed', detail });
    console.log(`  FAIL  ${name}\n        ${String(detail).split('\n').join('\n        ')}`);
  }

  /** Not run here, and why (not counted as passed). */
  skip(name, reason) {
    this.results.push({ name, status: 'skipped', detail: reason });
    console.log(`  skip  ${name}: ${reason}`);
  }

  /** Run `fn`; a throw is a failure with the error's message. */
  async check(name, fn) {
    try {
      const detail = await fn();
      this.pass(name, typeof detail === 'string' ? detail : '');
    } catch (error) {
      this.fail(name, error instanceof Error ? error.message : String(error));
    }
  }

  counts() {
    const count = (s) => this.results.filter((r) => r.status === s).length;
    return { passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
  }

  /**
   * Print the summary (worded so it is never mistaken for the closing line CI reads), write the
   * results to the file named by `--results FILE` when given, and exit 1 on any failure.
   */
  finish() {
    const { passed, failed, skipped } = this.counts();
    const failures = this.results.filter((r) => r.status === 'failed');
    if (failures.length) {
      console.log(`\n${this.title}: what to fix`);
      for (const f of failures) console.log(`  - ${f.name}: ${f.detail.split('\n')[0]}`);
    }
    console.log(`${this.title}: ${passed} checks ok, ${failed} failing, ${skipped} skipped`);
    const at = process.argv.indexOf('--results');
    if (at !== -1 && process.argv[at + 1]) {
      writeFileSync(process.argv[at + 1], JSON.stringify({ title: this.title, passed, failed, skipped, results: this.results }, null, 1));
    }
    process.exitCode = failed > 0 ? 1 : 0;
  }
}

/** The value of `--name VALUE` on the command line, or undefined. */
export function option(name) {
  const at = process.argv.indexOf(`--${name}`);
  return at !== -1 ? process.argv[at + 1] : undefined;
}

/** Whether `--name` is on the command line. */
export function flag(name) {
  return process.argv.includes(`--${name}`);
}
