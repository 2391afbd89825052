import type { ListEntry, ListHeader, ListedBirthDate, ListedDocument, ListedName } from './listEntry.ts';
import { monthRange, readBirthDate, yearRange } from './listEntry.ts';
import { child, childrenNamed, textOf, xmlRecords, XmlFormatError, type XmlNode } from './xmlRecords.ts';

/**
 * The UK Sanctions List as the FCDO publishes it (`UK_Sanctions_List.xml`; since 28 January 2026
 * the UK's only list): `Designations` with its `DateGenerated`, one `Designation` each, of which
 * `IndividualEntityShip` Individual is read: `UniqueID`, `Names/Name` (`Name1`..`Name6`, `Name6`
 * the surname; `NameType` Primary Name, Primary Name Variation or Alias; `AliasStrength` low or
 * weak = a weak alias), `NonLatinNames/NonLatinName/NameNonLatinScript`, and under
 * `IndividualDetails/Individual`: `DOBs/DOB` (`dd/mm/yyyy`, `dd` and `mm` where a part is not
 * known), `Nationalities/Nationality`, `PassportDetails/Passport/PassportNumber` and
 * `NationalIdentifierDetails/NationalIdentifier/NationalIdentifierNumber`.
 */
export async function* readUkList(
  source: AsyncIterable<string | Uint8Array>,
  header: ListHeader = { publishedAt: null },
): AsyncGenerator<ListEntry> {
  let root = '';
  let count = 0;
  for await (const node of xmlRecords(source, ['Designation', 'DateGenerated'], (r) => (root = r.name))) {
    if (root !== 'Designations') break;
    if (node.name === 'DateGenerated') {
      header.publishedAt = node.text.trim() || null;
      continue;
    }
    const entry = ukIndividual(node);
    if (entry === undefined) continue;
    count++;
    yield entry;
  }
  if (root !== 'Designations') {
    throw new XmlFormatError(`the root element is <${root}>, not the UK Sanctions List's <Designations>`);
  }
  if (count === 0)
    throw new XmlFormatError('the file lists no individual (no <Designation> of an Individual)');
}

const nested = (node: XmlNode | undefined, ...path: string[]): XmlNode[] => {
  let level = node === undefined ? [] : [node];
  for (const name of path) level = level.flatMap((n) => childrenNamed(n, name));
  return level;
};

function ukNames(node: XmlNode): ListedName[] {
  const names: ListedName[] = [];
  for (const name of nested(node, 'Names', 'Name')) {
    const text = ['Name1', 'Name2', 'Name3', 'Name4', 'Name5', 'Name6']
      .map((part) => textOf(name, part))
      .filter((part) => part !== '')
      .join(' ');
    if (text === '' || names.some((n) => n.text === text)) continue;
    const type = textOf(name, 'NameType').toLowerCase();
    names.push({
      text,
      kind: type === 'primary name' ? 'primary' : 'alias',
      weak: /low|weak/i.test(textOf(name, 'AliasStrength')),
    });
  }
  // The primary name first, as the other lists have it.
  names.sort((a, b) => Number(b.kind === 'primary') - Number(a.kind === 'primary'));
  for (const name of nested(node, 'NonLatinNames', 'NonLatinName')) {
    const text = textOf(name, 'NameNonLatinScript');
    if (text !== '') names.push({ text, kind: 'original_script', weak: false });
  }
  return names;
}

/** `12/05/1961`, `dd/05/1961`, `dd/mm/1961` (and `00` for `dd` or `mm`); anything else matches nothing. */
export function readUkDate(raw: string): ListedBirthDate | undefined {
  const text = raw.trim();
  const m = /^(\d{2}|dd)\/(\d{2}|mm)\/(\d{4})$/i.exec(text);
  if (m === null) return undefined;
  const day = Number(m[1]) || 0;
  const month = Number(m[2]) || 0;
  const year = Number(m[3]);
  if (month === 0 || month > 12) return yearRange(text, year, year);
  if (day === 0) return monthRange(text, year, month);
  const read = readBirthDate(`${m[3]}-${m[2]}-${m[1]}`);
  return read === undefined ? undefined : { ...read, text };
}

function ukIndividual(node: XmlNode): ListEntry | undefined {
  if (textOf(node, 'IndividualEntityShip').toLowerCase() !== 'individual') return undefined;
  const reference = textOf(node, 'UniqueID');
  if (reference === '') return undefined;
  const names = ukNames(node);
  if (names.length === 0) return undefined;
  const individuals = nested(child(node, 'IndividualDetails'), 'Individual');
  const texts = (...path: string[]) =>
    individuals
      .flatMap((i) => nested(i, ...path))
      .map((n) => n.text.replace(/\s+/g, ' ').trim())
      .filter((t, i, all) => t !== '' && all.indexOf(t) === i);
  const birthDates = texts('DOBs', 'DOB').flatMap((dob) => {
    const read = readUkDate(dob);
    return read === undefined ? [] : [read];
  });
  const documents = (kind: string, path: string[], number: string): ListedDocument[] =>
    individuals
      .flatMap((i) => nested(i, ...path))
      .map((doc) => ({ type: kind, number: textOf(doc, number), country: null }))
      .filter((doc) => doc.number !== '');
  return {
    reference,
    names,
    birthDates,
    nationalities: texts('Nationalities', 'Nationality'),
    documents: [
      ...documents('Passport', ['PassportDetails', 'Passport'], 'PassportNumber'),
      ...documents(
        'National identifier',
        ['NationalIdentifierDetails', 'NationalIdentifier'],
        'NationalIdentifierNumber',
      ),
    ],
  };
}
