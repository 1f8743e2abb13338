// The Node lanes' entry: `node node-lane.mjs <package> <cases.json>` loads the built package as Node
// resolves it and prints the lane's results as JSON on stdout.
import { readFileSync } from 'node:fs';
import { runCanonical, runCore } from './pack-lane.mjs';

const [, , which, casesFile] = process.argv;
const cases = JSON.parse(readFileSync(casesFile, 'utf8'));
const entry = new URL(`../../packages/${which}/dist/index.js`, import.meta.url);
const module = await import(entry.href);
const results = which === 'core' ? runCore(module, cases) : runCanonical(module, cases);
process.stdout.write(JSON.stringify({ node: process.version, results }));
