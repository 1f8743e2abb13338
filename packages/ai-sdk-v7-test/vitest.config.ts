import { createRequire } from 'node:module';
import { ewpProject } from '../../vitest.shared.js';

// `@ewp/ai-sdk`'s sources import `ai`; resolved from their own folder that is ai@6 (its dev
// dependency). Here every `ai` import resolves to this package's ai@7, as in a user's project on AI SDK 7.
const require = createRequire(import.meta.url);
export default ewpProject({
  resolve: {
    alias: [
      { find: /^ai$/, replacement: require.resolve('ai') },
      { find: /^ai\/test$/, replacement: require.resolve('ai/test') },
    ],
  },
});
