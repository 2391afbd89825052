import { readEuList } from './euFsf.ts';
import type { ListEntry, ListHeader, ListName } from './listEntry.ts';
import { readSdnList } from './ofacSdn.ts';
import { readOpenSanctions } from './openSanctions.ts';
import { readUkList } from './ukSanctionsList.ts';
import { readUnList } from './unList.ts';

const READERS: Record<
  ListName,
  (source: AsyncIterable<string | Uint8Array>, header?: ListHeader) => AsyncGenerator<ListEntry>
> = {
  un: readUnList,
  'ofac-sdn': readSdnList,
  eu: readEuList,
  uk: readUkList,
  opensanctions: readOpenSanctions,
};

/** The individuals of a list file in its published format, streamed. */
export function readList(
  list: ListName,
  source: AsyncIterable<string | Uint8Array>,
  header?: ListHeader,
): AsyncGenerator<ListEntry> {
  return READERS[list](source, header);
}
