/** Headless Debian chromium driven by playwright-core (never `playwright install`). */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Where screenshots go (gitignored). */
export const OUTPUT_DIR = new URL('../test-output/', import.meta.url).pathname;

/** The chromium binary, or why there is none. */
export function findChromium(): { path: string } | { missing: string } {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return { path: fromEnv };
  if (existsSync('/usr/bin/chromium')) return { path: '/usr/bin/chromium' };
  try {
    const found = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
    if (found) return { path: found };
  } catch {
    // not on PATH
  }
  return { missing: 'no chromium binary (/usr/bin/chromium, PATH, $CHROMIUM_PATH); install it with `apt-get install -y chromium` (.ci/run does)' };
}

export function launch(path: string): Promise<Browser> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  return chromium.launch({
    executablePath: path,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Console errors, page errors and failed requests of a page, collected for a final check. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.hostname !== '127.0.0.1' && url.protocol !== 'data:') errors.push(`outside request: ${r.url()}`);
  });
  return errors;
}
