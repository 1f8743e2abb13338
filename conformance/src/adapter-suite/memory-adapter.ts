/** The adapter contract the suite drives; the types live in @ewp/core so published subjects name only published types. */
export type { AdapterCapabilities, AdapterSubject, MemoryAdapter, NativeRecordPlanter } from '@ewp/core';

import type { EvidenceView } from '@ewp/core';
import type { MemoryAdapter } from '@ewp/core';

/** Reads a stored snapshot back through `get`, refusing (throwing) when the adapter has none. */
export async function readBack(adapter: MemoryAdapter, propositionId: string, viewId?: string): Promise<EvidenceView> {
  const view = await adapter.get(propositionId, viewId);
  if (view === undefined) throw new Error(`no stored snapshot ${viewId === undefined ? '' : `${JSON.stringify(viewId)} `}of ${JSON.stringify(propositionId)}`);
  return view;
}
