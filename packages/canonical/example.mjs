import { buildChainEntries, domainDigest, EMPTY_ANCHOR, ebcj1String, readJsonExact, verifyChain } from '@ewp/canonical';

const value = readJsonExact('{"b": [1, "x/y"], "n": 18446744073709551616, "a": {"z": true, "e": -7}}');
console.log(ebcj1String(value)); // {"a":{"e":-7,"z":true},"b":[1,"x/y"],"n":18446744073709551616}
console.log(domainDigest('evidence', value)); // hex SHA-256("evidencebound:evidence:EBCJ-1" || 0x00 || bytes)

const { entries, anchor } = buildChainEntries(EMPTY_ANCHOR, [{ type: 'snapshot_put', view_id: 'v-1' }]);
console.log(verifyChain(entries, anchor).ok, verifyChain([], anchor).reason); // true 'truncated'
