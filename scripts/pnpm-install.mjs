// Install the locked dependencies with pnpm 10.34.9 (through npx on a machine without pnpm).
import { pnpm } from './pnpm.mjs';

pnpm(['install', '--frozen-lockfile']);
