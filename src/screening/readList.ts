import type { ListEntry, ListHeader, ListName } from './listEntry.ts';
import { readSdnList } from './ofacSdn.ts';
import { readUnList } from './unList.ts';

/** The individuals of a list file in its published format, streamed. */
export function readList(
  list: ListName,
  source: AsyncIterable<string | Uint8Array>,
  header?: ListHeader,
): AsyncGenerator<ListEntry> {
  return list === 'un' ? readUnList(source, header) : readSdnList(source, header);
}
