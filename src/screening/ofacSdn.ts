import type { ListEntry, ListHeader, ListedName } from './listEntry.ts';
import { readBirthDate } from './listEntry.ts';
import { child, childrenNamed, textOf, xmlRecords, XmlFormatError, type XmlNode } from './xmlRecords.ts';

/**
 * OFAC's Specially Designated Nationals list (SDN.XML): `sdnList/sdnEntry` with `uid`,
 * `firstName`, `lastName`, `sdnType` (only `Individual` is read), `akaList/aka` (with a `category`
 * of strong or weak), `dateOfBirthList/dateOfBirthItem`, `nationalityList/nationality` and
 * `idList/id`. The file's default namespace (`http://tempuri.org/sdnList.xsd`) is ignored.
 */
export async function* readSdnList(
  source: AsyncIterable<string | Uint8Array>,
  header: ListHeader = { publishedAt: null },
): AsyncGenerator<ListEntry> {
  let root = '';
  for await (const node of xmlRecords(source, ['sdnEntry', 'publshInformation'], (r) => (root = r.name))) {
    if (node.name === 'publshInformation') {
      header.publishedAt = textOf(node, 'Publish_Date') || null;
      continue;
    }
    const entry = sdnIndividual(node);
    if (entry !== undefined) yield entry;
  }
  if (root !== 'sdnList') {
    throw new XmlFormatError(`the root element is <${root}>, not OFAC's <sdnList>`);
  }
}

/** Not identity documents: what OFAC also lists under idList. */
const NOT_DOCUMENTS =
  /gender|website|e-?mail|phone|digital currency|vessel|aircraft|established|sanctions|nationality of registration|swift|bic|duns/i;

function nameOf(node: XmlNode): string {
  return [textOf(node, 'firstName'), textOf(node, 'lastName')].filter((part) => part !== '').join(' ');
}

function sdnIndividual(node: XmlNode): ListEntry | undefined {
  if (textOf(node, 'sdnType') !== 'Individual') return undefined;
  const reference = textOf(node, 'uid');
  if (reference === '') return undefined;
  const names: ListedName[] = [];
  const primary = nameOf(node);
  if (primary !== '') names.push({ text: primary, kind: 'primary', weak: false });
  for (const aka of childrenNamed(child(node, 'akaList') ?? node, 'aka')) {
    const text = nameOf(aka);
    if (text !== '')
      names.push({ text, kind: 'alias', weak: textOf(aka, 'category').toLowerCase() === 'weak' });
  }
  if (names.length === 0) return undefined;
  const list = (listName: string, itemName: string) => childrenNamed(child(node, listName) ?? node, itemName);
  const birthDates = list('dateOfBirthList', 'dateOfBirthItem').flatMap((item) => {
    const read = readBirthDate(textOf(item, 'dateOfBirth'));
    return read === undefined ? [] : [read];
  });
  const nationalities = [...list('nationalityList', 'nationality'), ...list('citizenshipList', 'citizenship')]
    .map((n) => textOf(n, 'country'))
    .filter((c, i, all) => c !== '' && all.indexOf(c) === i);
  const documents = list('idList', 'id')
    .map((id) => ({
      type: textOf(id, 'idType'),
      number: textOf(id, 'idNumber'),
      country: textOf(id, 'idCountry') || null,
    }))
    .filter((doc) => doc.number !== '' && !NOT_DOCUMENTS.test(doc.type));
  return { reference, names, birthDates, nationalities, documents };
}
