import type { ListEntry, ListHeader, ListedBirthDate, ListedDocument, ListedName } from './listEntry.ts';
import { readBirthDate, yearRange } from './listEntry.ts';
import { childrenNamed, textOf, xmlRecords, XmlFormatError, type XmlNode } from './xmlRecords.ts';

/**
 * The UN Security Council Consolidated List (consolidated.xml): `CONSOLIDATED_LIST/INDIVIDUALS/
 * INDIVIDUAL`, its name in up to four parts, `NAME_ORIGINAL_SCRIPT`, `INDIVIDUAL_ALIAS` (with a
 * `QUALITY` of Good or Low), `INDIVIDUAL_DATE_OF_BIRTH` (EXACT, APPROXIMATELY or BETWEEN),
 * `NATIONALITY/VALUE` and `INDIVIDUAL_DOCUMENT`. Entities are not read (individuals only).
 */
export async function* readUnList(
  source: AsyncIterable<string | Uint8Array>,
  header: ListHeader = { publishedAt: null },
): AsyncGenerator<ListEntry> {
  let root = '';
  for await (const node of xmlRecords(source, ['INDIVIDUAL'], (r) => {
    root = r.name;
    header.publishedAt = r.attributes['dateGenerated'] ?? null;
  })) {
    const entry = unIndividual(node);
    if (entry !== undefined) yield entry;
  }
  if (root !== 'CONSOLIDATED_LIST') {
    throw new XmlFormatError(`the root element is <${root}>, not the UN list's <CONSOLIDATED_LIST>`);
  }
}

function unIndividual(node: XmlNode): ListEntry | undefined {
  const reference = textOf(node, 'REFERENCE_NUMBER') || textOf(node, 'DATAID');
  if (reference === '') return undefined;
  const names: ListedName[] = [];
  const primary = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME']
    .map((part) => textOf(node, part))
    .filter((part) => part !== '')
    .join(' ');
  if (primary !== '') names.push({ text: primary, kind: 'primary', weak: false });
  const original = textOf(node, 'NAME_ORIGINAL_SCRIPT');
  if (original !== '') names.push({ text: original, kind: 'original_script', weak: false });
  for (const alias of childrenNamed(node, 'INDIVIDUAL_ALIAS')) {
    const text = textOf(alias, 'ALIAS_NAME');
    if (text === '') continue;
    names.push({ text, kind: 'alias', weak: textOf(alias, 'QUALITY').toLowerCase() === 'low' });
  }
  if (names.length === 0) return undefined;

  const birthDates: ListedBirthDate[] = [];
  for (const dob of childrenNamed(node, 'INDIVIDUAL_DATE_OF_BIRTH')) {
    const type = textOf(dob, 'TYPE_OF_DATE').toUpperCase();
    const date = textOf(dob, 'DATE');
    const year = textOf(dob, 'YEAR');
    const from = textOf(dob, 'FROM_YEAR');
    const to = textOf(dob, 'TO_YEAR');
    const slack = type === 'APPROXIMATELY' ? 1 : 0;
    if (/^\d{4}$/.test(from) && /^\d{4}$/.test(to)) {
      birthDates.push(yearRange(`${from}-${to}`, Number(from), Number(to), slack));
    } else if (date !== '') {
      const read = readBirthDate(slack === 1 ? `circa ${date.slice(0, 10)}` : date.slice(0, 10));
      if (read !== undefined) birthDates.push(read);
    } else if (/^\d{4}$/.test(year)) {
      birthDates.push(yearRange(slack === 1 ? `circa ${year}` : year, Number(year), Number(year), slack));
    }
  }
  const nationalities = childrenNamed(node, 'NATIONALITY')
    .flatMap((n) => childrenNamed(n, 'VALUE'))
    .map((v) => v.text.trim())
    .filter((v) => v !== '');
  const documents: ListedDocument[] = childrenNamed(node, 'INDIVIDUAL_DOCUMENT')
    .map((doc) => ({
      type: textOf(doc, 'TYPE_OF_DOCUMENT') || textOf(doc, 'TYPE_OF_DOCUMENT2'),
      number: textOf(doc, 'NUMBER'),
      country: textOf(doc, 'ISSUING_COUNTRY') || textOf(doc, 'COUNTRY_OF_ISSUE') || null,
    }))
    .filter((doc) => doc.number !== '');
  return { reference, names, birthDates, nationalities, documents };
}
