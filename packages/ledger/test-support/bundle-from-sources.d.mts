/** Bundle `entry` (a .ts file) to `outfile`; returns `outfile`. */
export function bundleFromSources(entry: string, outfile: string, logLevel?: 'silent' | 'error'): Promise<string>;
/** Bundle a worker from `<package>/test/` into a fresh folder under that package's `node_modules/.cache`. */
export function bundleWorker(entry: string): Promise<string>;
