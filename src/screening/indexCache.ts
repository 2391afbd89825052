import type { Store } from '../store/connect.ts';
import { entriesOf, versionsInForce } from './listRepository.ts';
import { ScreeningIndex } from './screeningIndex.ts';

/**
 * The index of the lists in force, built once per process and list version: each screening reads
 * which versions are in force (one small query) and rebuilds only when an import changed them.
 */
const cache = new WeakMap<Store, { key: string; index: Promise<ScreeningIndex> }>();

export async function screeningIndexFor(store: Store): Promise<ScreeningIndex> {
  const versions = await versionsInForce(store.db);
  const key = versions.map((v) => v.version_id).join(',');
  const held = cache.get(store);
  if (held !== undefined && held.key === key) return held.index;
  const index = (async () =>
    new ScreeningIndex(
      await Promise.all(
        versions.map(async (v) => ({
          list: v.list,
          versionId: v.version_id,
          entries: await entriesOf(store.db, v.version_id),
        })),
      ),
    ))();
  cache.set(store, { key, index });
  index.catch(() => cache.delete(store));
  return index;
}
