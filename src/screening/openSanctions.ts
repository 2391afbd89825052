import { jsonLines } from './jsonLines.ts';
import type {
  ListEntry,
  ListHeader,
  ListedBirthDate,
  ListedName,
  ListedPep,
  ListedPosition,
  ListedRelation,
} from './listEntry.ts';
import { kindOf, monthRange, readBirthDate } from './listEntry.ts';
import { ListFormatError } from './xmlRecords.ts';

/**
 * FollowTheMoney entities as OpenSanctions publishes them (`entities.ftm.json`, one entity a line:
 * `{"id", "schema", "properties": {"name": [...], ...}}`; nested entities, as in
 * `targets.nested.json`, are read alike). A `Person` is read when its `topics` say what it is:
 * `sanction` (a sanctions entry: a match holds the application), else `role.pep` (a politically
 * exposed person) or `role.rca` (a relative or close associate of one): a PEP match, which holds
 * nothing. Read: `name`, `alias`, `previousName`, `weakAlias` (a weak alias), `birthDate`,
 * `nationality`, `citizenship`, `passportNumber`, `idNumber`, `position`; a PEP's positions from
 * the `Occupancy` entities (`holder`, `post`, `startDate`, `endDate`) of the `Position` entities
 * (`name`, `country`) where the data has them; an RCA's tie from `Family` (`person`, `relative`,
 * `relationship`) and `Associate` (`person`, `associate`, `relationship`). Other schemas and
 * topics are not read. Positions and ties may come before or after their person, so the people
 * read are held until the file ends and then given out.
 */
export async function* readOpenSanctions(
  source: AsyncIterable<string | Uint8Array>,
  header: ListHeader = { publishedAt: null },
): AsyncGenerator<ListEntry> {
  const file = new FtmFile();
  let lines = 0;
  for await (const { line, value } of jsonLines(source)) {
    lines++;
    for (const entity of flatten(value, line)) file.take(entity);
  }
  if (lines === 0) throw new ListFormatError('the file is empty (no entity)');
  header.publishedAt = file.lastChange;
  let count = 0;
  for (const entry of file.entries()) {
    count++;
    yield entry;
  }
  if (count === 0) throw new ListFormatError('the file lists no sanctioned person, PEP or RCA');
}

interface FtmEntity {
  id: string;
  schema: string;
  properties: Record<string, string[]>;
  last_change: string | null;
}

/** Nested entities, when their parent reaches them through a reverse property, name it thus. */
const REVERSE: Readonly<Record<string, string>> = {
  positionOccupancies: 'holder',
  familyPerson: 'person',
  familyRelative: 'relative',
  associates: 'person',
  associations: 'associate',
};
const MAX_DEPTH = 4;
const READ_TOPICS = new Set(['sanction', 'role.pep', 'role.rca']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The entity of a line and the entities nested in it, each with its nested ones replaced by ids. */
function flatten(value: unknown, line: number, depth = 0, out: FtmEntity[] = []): FtmEntity[] {
  if (!isObject(value) || typeof value['id'] !== 'string' || typeof value['schema'] !== 'string') {
    throw new ListFormatError(`line ${line} is not a FollowTheMoney entity (no "id" and "schema")`);
  }
  const raw = value['properties'] ?? {};
  if (!isObject(raw)) throw new ListFormatError(`line ${line}: "properties" is not an object`);
  const id = value['id'];
  const properties: Record<string, string[]> = {};
  const entity: FtmEntity = {
    id,
    schema: value['schema'],
    properties,
    last_change: typeof value['last_change'] === 'string' ? value['last_change'] : null,
  };
  out.push(entity);
  for (const [name, values] of Object.entries(raw)) {
    if (!Array.isArray(values)) throw new ListFormatError(`line ${line}: property "${name}" is not a list`);
    const strings: string[] = [];
    for (const item of values) {
      if (typeof item === 'string') strings.push(item);
      else if (isObject(item) && depth < MAX_DEPTH) {
        const before = out.length;
        flatten(item, line, depth + 1, out);
        const nested = out[before]!;
        const back = REVERSE[name];
        if (back !== undefined && (nested.properties[back] ?? []).length === 0)
          nested.properties[back] = [id];
        strings.push(nested.id);
      }
    }
    properties[name] = strings;
  }
  return out;
}

interface Occupancy {
  post: string;
  start: string | null;
  end: string | null;
}

/** What the file has said so far: people, positions, occupancies and ties, joined at the end. */
class FtmFile {
  private readonly people = new Map<string, FtmEntity>();
  private readonly positions = new Map<string, { title: string; country: string | null }>();
  private readonly occupancies = new Map<string, Occupancy[]>();
  private readonly ties = new Map<string, { other: string; relationship: string }[]>();
  lastChange: string | null = null;

  take(entity: FtmEntity): void {
    if (entity.last_change !== null && (this.lastChange === null || entity.last_change > this.lastChange))
      this.lastChange = entity.last_change;
    const p = entity.properties;
    const first = (name: string) => p[name]?.find((v) => v.trim() !== '')?.trim() ?? null;
    switch (entity.schema) {
      case 'Person': {
        const held = this.people.get(entity.id);
        // The same person twice (nested and flat): their values together.
        if (held === undefined) {
          // Only those the file lists for a reason screening reads (memory: a PEP data set is big).
          if ((p['topics'] ?? []).some((t) => READ_TOPICS.has(t))) this.people.set(entity.id, entity);
        } else
          for (const [k, v] of Object.entries(p)) held.properties[k] = [...(held.properties[k] ?? []), ...v];
        return;
      }
      case 'Position': {
        const title = first('name');
        if (title !== null) this.positions.set(entity.id, { title, country: upper(first('country')) });
        return;
      }
      case 'Occupancy': {
        const holder = first('holder');
        const post = first('post');
        if (holder === null || post === null) return;
        push(this.occupancies, holder, { post, start: first('startDate'), end: first('endDate') });
        return;
      }
      case 'Family':
      case 'Associate': {
        const person = first('person');
        const other = first(entity.schema === 'Family' ? 'relative' : 'associate');
        if (person === null || other === null) return;
        const relationship = first('relationship') ?? (entity.schema === 'Family' ? 'family' : 'associate');
        push(this.ties, person, { other, relationship });
        push(this.ties, other, { other: person, relationship });
        return;
      }
      default:
        return;
    }
  }

  *entries(): Generator<ListEntry> {
    for (const person of this.people.values()) {
      const entry = this.entryOf(person);
      if (entry !== undefined) yield entry;
    }
  }

  private entryOf(person: FtmEntity): ListEntry | undefined {
    const p = person.properties;
    const values = (...names: string[]) =>
      names
        .flatMap((name) => p[name] ?? [])
        .map((v) => v.replace(/\s+/g, ' ').trim())
        .filter((v, i, all) => v !== '' && all.indexOf(v) === i);
    const topics = values('topics');
    const role = topics.includes('sanction')
      ? null
      : topics.includes('role.pep')
        ? 'pep'
        : topics.includes('role.rca')
          ? 'rca'
          : undefined;
    if (role === undefined) return undefined;
    const names: ListedName[] = [];
    const add = (text: string, weak: boolean) => {
      if (!names.some((n) => n.text === text)) names.push({ text, kind: kindOf(text, names.length), weak });
    };
    for (const text of values('name', 'alias', 'previousName')) add(text, false);
    if (names.length === 0) {
      const parts = values('firstName', 'middleName', 'lastName').join(' ');
      if (parts !== '') add(parts, false);
    }
    for (const text of values('weakAlias')) add(text, true);
    if (names.length === 0) return undefined;
    const entry: ListEntry = {
      reference: person.id,
      names,
      birthDates: values('birthDate').flatMap((d) => {
        const read = ftmDate(d);
        return read === undefined ? [] : [read];
      }),
      nationalities: values('nationality', 'citizenship').map((c) => c.toUpperCase()),
      documents: [
        ...values('passportNumber').map((number) => ({ type: 'Passport', number, country: null })),
        ...values('idNumber').map((number) => ({ type: 'Identity number', number, country: null })),
      ],
    };
    if (role !== null) entry.pep = this.pepOf(person.id, role, values('position'));
    return entry;
  }

  private pepOf(id: string, role: 'pep' | 'rca', titles: string[]): ListedPep {
    const positions: ListedPosition[] = (this.occupancies.get(id) ?? []).flatMap((o) => {
      const post = this.positions.get(o.post);
      return post === undefined ? [] : [{ ...post, start: o.start, end: o.end }];
    });
    // Where the data has no Occupancy, the person's own `position` (a title, no dates).
    for (const title of titles) {
      if (!positions.some((held) => held.title === title))
        positions.push({ title, country: null, start: null, end: null });
    }
    if (role === 'pep') return { role, positions, relations: [] };
    const relations: ListedRelation[] = (this.ties.get(id) ?? []).map((tie) => ({
      relationship: tie.relationship,
      reference: tie.other,
      name: this.people.get(tie.other)?.properties['name']?.[0] ?? null,
    }));
    return { role, positions, relations };
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

const upper = (code: string | null) => (code === null ? null : code.toUpperCase());

/** A FollowTheMoney date: `1970`, `1970-05`, `1970-05-12` (a longer one is cut to the day). */
function ftmDate(text: string): ListedBirthDate | undefined {
  const m = /^(\d{4})-(\d{2})$/.exec(text);
  if (m !== null) {
    const month = Number(m[2]);
    return month >= 1 && month <= 12 ? monthRange(text, Number(m[1]), month) : undefined;
  }
  return readBirthDate(text.slice(0, 10));
}
