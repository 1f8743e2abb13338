import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});
