import type { ListEntry, ListHeader, ListedBirthDate, ListedDocument, ListedName } from './listEntry.ts';
import { kindOf, monthRange, readBirthDate, yearRange } from './listEntry.ts';
import { childrenNamed, xmlRecords, XmlFormatError, type XmlNode } from './xmlRecords.ts';

/**
 * The EU's consolidated list of persons subject to financial sanctions, as the Financial Sanctions
 * Files publish it (`xmlFullSanctionsList_1_1`): `export` (its `generationDate`), one
 * `sanctionEntity` per entry, whose facts are attributes: `subjectType code="person"` (only persons
 * are read), `nameAlias` (`wholeName`, or `firstName` `middleName` `lastName`; `strong="false"` is
 * a weak alias), `birthdate` (`birthdate`, or `year` with `monthOfYear`, or `yearRangeFrom` to
 * `yearRangeTo`; `circa="true"` widens it a year), `citizenship` (`countryDescription`) and
 * `identification` (`number` or `latinNumber`, `identificationTypeDescription`). The file's
 * default namespace (`http://eu.europa.ec/fpi/fsd/export`) is ignored.
 */
export async function* readEuList(
  source: AsyncIterable<string | Uint8Array>,
  header: ListHeader = { publishedAt: null },
): AsyncGenerator<ListEntry> {
  let root = '';
  let count = 0;
  for await (const node of xmlRecords(source, ['sanctionEntity'], (r) => {
    root = r.name;
    header.publishedAt = r.attributes['generationDate'] ?? null;
  })) {
    if (root !== 'export') break;
    const entry = euPerson(node);
    if (entry === undefined) continue;
    count++;
    yield entry;
  }
  if (root !== 'export') {
    throw new XmlFormatError(`the root element is <${root}>, not the EU list's <export>`);
  }
  if (count === 0) throw new XmlFormatError('the file lists no person (no <sanctionEntity> of a person)');
}

/** What the EU writes where it has no country. */
const NO_COUNTRY = new Set(['', '00', 'UNKNOWN']);
/** Identifications that are not a person's document: SWIFT codes, ships, companies. */
const NOT_DOCUMENTS = new Set(['swiftbic', 'imo', 'regnumber', 'tradelic']);

const attr = (node: XmlNode, name: string) => (node.attributes[name] ?? '').replace(/\s+/g, ' ').trim();

function country(node: XmlNode): string | null {
  const description = attr(node, 'countryDescription');
  if (!NO_COUNTRY.has(description)) return description;
  const code = attr(node, 'countryIso2Code');
  return NO_COUNTRY.has(code) ? null : code;
}

function euNames(node: XmlNode): ListedName[] {
  const names: ListedName[] = [];
  for (const alias of childrenNamed(node, 'nameAlias')) {
    const whole = attr(alias, 'wholeName');
    const text =
      whole ||
      ['firstName', 'middleName', 'lastName']
        .map((part) => attr(alias, part))
        .filter((part) => part !== '')
        .join(' ');
    if (text === '' || names.some((n) => n.text === text)) continue;
    names.push({
      text,
      kind: kindOf(text, names.length),
      weak: attr(alias, 'strong').toLowerCase() === 'false',
    });
  }
  return names;
}

function euBirthDate(node: XmlNode): ListedBirthDate | undefined {
  const circa = attr(node, 'circa').toLowerCase() === 'true';
  const slack = circa ? 1 : 0;
  const exact = attr(node, 'birthdate');
  if (/^\d{4}-\d{2}-\d{2}$/.test(exact)) return readBirthDate(circa ? `circa ${exact}` : exact);
  const year = attr(node, 'year');
  const month = Number(attr(node, 'monthOfYear'));
  if (/^\d{4}$/.test(year)) {
    if (!circa && month >= 1 && month <= 12) return monthRange(`${year}-${month}`, Number(year), month);
    return yearRange(circa ? `circa ${year}` : year, Number(year), Number(year), slack);
  }
  const from = attr(node, 'yearRangeFrom');
  const to = attr(node, 'yearRangeTo');
  if (/^\d{4}$/.test(from) || /^\d{4}$/.test(to)) {
    const low = /^\d{4}$/.test(from) ? Number(from) : Number(to);
    const high = /^\d{4}$/.test(to) ? Number(to) : Number(from);
    return yearRange(`${from || '?'}-${to || '?'}`, Math.min(low, high), Math.max(low, high), slack);
  }
  return undefined;
}

function euPerson(node: XmlNode): ListEntry | undefined {
  const type = childrenNamed(node, 'subjectType')[0];
  if (type === undefined || attr(type, 'code') !== 'person') return undefined;
  const reference = attr(node, 'euReferenceNumber') || attr(node, 'logicalId');
  if (reference === '') return undefined;
  const names = euNames(node);
  if (names.length === 0) return undefined;
  const birthDates = childrenNamed(node, 'birthdate').flatMap((b) => {
    const read = euBirthDate(b);
    return read === undefined ? [] : [read];
  });
  const nationalities = childrenNamed(node, 'citizenship')
    .map(country)
    .filter((c, i, all): c is string => c !== null && all.indexOf(c) === i);
  const documents: ListedDocument[] = childrenNamed(node, 'identification')
    .filter((id) => !NOT_DOCUMENTS.has(attr(id, 'identificationTypeCode')))
    .map((id) => ({
      type: attr(id, 'identificationTypeDescription') || attr(id, 'identificationTypeCode'),
      number: attr(id, 'number') || attr(id, 'latinNumber'),
      country: country(id),
    }))
    .filter((doc) => doc.number !== '');
  return { reference, names, birthDates, nationalities, documents };
}
