import { decodeViewJson, normalizeWarrantView, REFERENCE_V2, warrantNow } from '@ewp/core';
import type { EvaluatorUnderTest } from './evaluator-suite.js';

/** @ewp/core wrapped as an {@link EvaluatorUnderTest}. */
export const coreEvaluator: EvaluatorUnderTest = {
  name: '@ewp/core',
  evaluate(viewText, evaluatedAt) {
    const view = decodeViewJson(viewText);
    return normalizeWarrantView(warrantNow(view, REFERENCE_V2, evaluatedAt as string)) as unknown as Record<string, unknown>;
  },
};
