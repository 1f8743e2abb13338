#!/usr/bin/env bash
# Scaffold one workspace package: scripts/new-package.sh <dir> <name> <description>
set -euo pipefail
dir=$1; name=$2; desc=$3
mkdir -p "$dir/src"
[ -f "$dir/package.json" ] || cat > "$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "0.0.0",
  "description": "$desc",
  "license": "Apache-2.0",
  "type": "module",
  "sideEffects": false,
  "exports": {
    ".": {
      "source": "./src/index.ts",
      "types": "./dist/index.d.ts",
      "import": "./dist/index.js"
    },
    "./package.json": "./package.json"
  },
  "main": "./dist/index.js",
  "types": "./dist/index.d.ts",
  "files": ["dist", "src", "!src/**/*.test.ts"],
  "scripts": {
    "build": "tsup",
    "typecheck": "tsc --noEmit",
    "test": "vitest run",
    "publint": "publint"
  },
  "engines": { "node": ">=20.19" }
}
JSON
[ -f "$dir/tsconfig.json" ] || cat > "$dir/tsconfig.json" <<JSON
{
  "extends": "../tsconfig.base.json",
  "compilerOptions": { "types": ["node"], "noEmit": true },
  "include": ["src", "test", "bench", "*.ts"]
}
JSON
[ -f "$dir/tsup.config.ts" ] || cat > "$dir/tsup.config.ts" <<TS
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
TS
[ -f "$dir/vitest.config.ts" ] || cat > "$dir/vitest.config.ts" <<TS
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});
TS
[ -f "$dir/src/index.ts" ] || echo "export {};" > "$dir/src/index.ts"
