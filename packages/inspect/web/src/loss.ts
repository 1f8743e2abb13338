/** The adapter loss report in words, as the Trust panel shows it. */
import type { LossCount } from './api.js';

/** `field: 3 observations in 2 fixtures (+1 by native-records)`: every count the report holds, none hidden. */
export function lossCountWords(field: string, count: LossCount): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const others = Object.entries(count.other_checks).map(([check, n]) => `${n} by ${check}`);
  return `${field}: ${plural(count.observations, 'observation')} in ${plural(count.fixtures, 'fixture')}${others.length === 0 ? '' : ` (${others.join(', ')})`}`;
}
