/** Bundle `entry` (a .ts file) to `outfile`; returns `outfile`. */
export function bundleFromSources(entry: string, outfile: string, logLevel?: 'silent' | 'error'): Promise<string>;
/** Bundle a worker from `<package>/test/` into a fresh folder under that package's `node_modules/.cache`. */
export function bundleWorker(entry: string): Promise<string>;
/** An esbuild plugin: `@ewp/sqlite`'s driver module resolves better-sqlite3 from its source folder inside any bundle. */
export const sqliteDriverFromSources: import('esbuild').Plugin;
