#!/bin/sh
# The validity-horizon differential test at 1,000,000 warrantNow comparisons (the test file runs fewer).
# Run from the repository root: sh conformance/scripts/horizon-differential.sh
set -eu
EWP_HORIZON_CHECKS="${EWP_HORIZON_CHECKS:-1000000}" exec npx vitest run --project @ewp/conformance conformance/test/warrant-horizon.test.ts
