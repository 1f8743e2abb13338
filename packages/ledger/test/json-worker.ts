/** Child process for the JSON-store tests: `append <root> <worker> <count> <props>`. */
import { JsonFileEvidenceStore } from '../src/json-file-store.js';
import { evidenceRecord } from '../test-support/fault-views.js';

const [root, worker, count, props] = process.argv.slice(2);
const store = new JsonFileEvidenceStore(root as string);
for (let i = 0; i < Number(count); i += 1) {
  await store.extend(`P-${i % Number(props)}`, [{ kind: 'evidence', record: evidenceRecord(`w${worker}-${i}`) }]);
}
await store.close();
