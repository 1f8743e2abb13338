// What every runtime lane runs, the same code everywhere (Node, the browser bundle, the edge bundle):
// @ewp/core evaluates each conformance-pack case; @ewp/canonical reads, canonicalizes, digests and
// chains each of its EBCJ-1 vectors. Results are plain JSON, checked by the host (scripts/runtime-lanes.mjs).

/** Evaluate every case with @ewp/core: the normalized WarrantView, or the refusal's code. */
export function runCore(core, cases) {
  return cases.map(({ text, evaluatedAt }) => {
    try {
      const view = core.decodeViewJson(text);
      return { warrant: core.normalizeWarrantView(core.warrantNow(view, core.REFERENCE_V2, evaluatedAt)) };
    } catch (error) {
      return { error: { code: error?.code ?? null, message: String(error?.message ?? error) } };
    }
  });
}

/**
 * With @ewp/canonical, for each EBCJ-1 vector: its exact reading, EBCJ-1 text, domain digests, and a
 * one-entry hash chain named after it, verified.
 */
export function runCanonical(canonical, cases) {
  const attempt = (fn) => {
    try {
      return fn();
    } catch (error) {
      return { error: error?.code ?? String(error) };
    }
  };
  return cases.map(({ name, text, domains }) => {
    const value = attempt(() => canonical.readJsonExact(text));
    if (value?.error !== undefined) return { read: value };
    const { entries, anchor } = canonical.buildChainEntries(canonical.EMPTY_ANCHOR, [{ type: 'snapshot_put', view_id: name }]);
    return {
      ebcj1: attempt(() => canonical.ebcj1String(value)),
      digests: Object.fromEntries(domains.map((d) => [d, attempt(() => canonical.domainDigest(d, value))])),
      chain: attempt(() => ({ head: anchor.head_hash, verified: canonical.verifyChain(entries, anchor).ok })),
    };
  });
}
