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
      "@ewp/source": "./src/index.ts",
      "types": "./dist/index.d.ts",
      "import": "./dist/index.js",
      "default": "./dist/index.js"
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
    "publint": "publint && attw --pack . --profile node16 --ignore-rules cjs-resolves-to-esm",
    "lint": "biome check ."
  },
  "engines": { "node": ">=20.19" }
}
JSON
[ -f "$dir/tsconfig.json" ] || cat > "$dir/tsconfig.json" <<JSON
{
  "extends": "../../tsconfig.base.json",
  "compilerOptions": { "types": ["node"], "noEmit": true },
  "include": ["src", "test", "bench", "*.ts"]
}
JSON
[ -f "$dir/tsup.config.ts" ] || printf "import { ewpTsup } from '../../tsup.shared.js';\n\nexport default ewpTsup();\n" > "$dir/tsup.config.ts"
[ -f "$dir/vitest.config.ts" ] || printf "import { ewpProject } from '../../vitest.shared.js';\n\nexport default ewpProject();\n" > "$dir/vitest.config.ts"
[ -f "$dir/src/index.ts" ] || echo "export {};" > "$dir/src/index.ts"
