import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The page ships built in dist/web, so `ewp inspect` needs no build step and works offline. The
// conformance loss report is shipped beside it (dist/loss-reports.json), read by the server.
export default defineConfig({
  root: here('./web'),
  base: './',
  plugins: [
    preact(),
    {
      name: 'ewp-loss-report',
      closeBundle: () => copyFileSync(here('../../docs/loss-reports.json'), here('./dist/loss-reports.json')),
    },
  ],
  build: {
    outDir: here('./dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    // One small module script and a stylesheet: the CSP allows no inline code.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
