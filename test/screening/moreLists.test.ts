import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { importList } from '../../src/screening/importList.ts';
import type { ListEntry, ListHeader, ListName } from '../../src/screening/listEntry.ts';
import { readList } from '../../src/screening/readList.ts';
import { readUkDate } from '../../src/screening/ukSanctionsList.ts';
import { MAX_LINE } from '../../src/screening/jsonLines.ts';
import { ServiceError } from '../../src/errors/serviceError.ts';
import { storeNames } from '../helpers/stores.ts';
import { suiteContext } from '../helpers/suiteContext.ts';

/**
 * The EU, UK and OpenSanctions lists, read from files in their published schemas
 * (fixtures/README.md), and refused whole when a file is not what it says it is.
 */
const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

async function readAll(list: ListName, source: AsyncIterable<string | Uint8Array>, header?: ListHeader) {
  const entries: ListEntry[] = [];
  for await (const entry of readList(list, source, header)) entries.push(entry);
  return entries;
}

async function* chunks(bytes: Buffer | string, size: number) {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  for (let i = 0; i < buffer.length; i += size) yield buffer.subarray(i, i + size);
}

describe('EU consolidated financial sanctions list (FSF XML)', () => {
  test('reads persons: names (weak marked, Cyrillic as original script), dates, citizenship, documents', async () => {
    const header: ListHeader = { publishedAt: null };
    const entries = await readAll('eu', createReadStream(fixture('eu-fsf.xml')), header);
    assert.equal(header.publishedAt, '2026-11-21T16:47:04.449+01:00');
    assert.deepEqual(
      entries.map((e) => e.reference),
      ['EU.9901.01', 'EU.9902.02'],
      'the enterprise is not read',
    );
    const [first, second] = entries;
    assert.deepEqual(first!.names, [
      { text: 'Testislav Petrovich VORONTESTOV', kind: 'primary', weak: false },
      { text: 'Тестислав Петрович ВОРОНТЕСТОВ', kind: 'original_script', weak: false },
      { text: 'Testo', kind: 'alias', weak: true },
    ]);
    assert.deepEqual(
      first!.birthDates.map((d) => [d.from, d.to]),
      [
        ['1966-07-09', '1966-07-09'],
        ['1966-01-01', '1968-12-31'],
      ],
    );
    assert.deepEqual(first!.nationalities, ['RUSSIAN FEDERATION']);
    assert.deepEqual(first!.documents, [
      { type: 'National passport', number: 'TE 7701 9901', country: 'RUSSIAN FEDERATION' },
    ]);
    assert.equal(second!.names[0]!.text, 'Testaf Al-Qasimtest', 'the parts when there is no wholeName');
    assert.deepEqual(
      second!.birthDates.map((d) => [d.from, d.to]),
      [
        ['1970-01-01', '1972-12-31'],
        ['1971-03-01', '1971-03-31'],
      ],
    );
  });

  test('reads the same in 7-byte chunks', async () => {
    const bytes = await readFile(fixture('eu-fsf.xml'));
    assert.deepEqual(await readAll('eu', chunks(bytes, 7)), await readAll('eu', chunks(bytes, 4096)));
  });
});

describe('UK Sanctions List (FCDO XML)', () => {
  test('reads individuals: name parts, variations and weak aliases, non-Latin names, DOBs, documents', async () => {
    const header: ListHeader = { publishedAt: null };
    const entries = await readAll('uk', createReadStream(fixture('uk-sanctions-list.xml')), header);
    assert.equal(header.publishedAt, '2026-11-22T09:00:00');
    assert.deepEqual(
      entries.map((e) => e.reference),
      ['RUS9901', 'DPR9902'],
    );
    const [first, second] = entries;
    assert.deepEqual(first!.names, [
      { text: 'Testomir Ivanovich GRAFTESTOV', kind: 'primary', weak: false },
      { text: 'Testomir GRAFTESTOFF', kind: 'alias', weak: false },
      { text: 'GRAF', kind: 'alias', weak: true },
      { text: 'Тестомир Иванович ГРАФТЕСТОВ', kind: 'original_script', weak: false },
    ]);
    assert.deepEqual(
      first!.birthDates.map((d) => [d.text, d.from, d.to]),
      [
        ['05/08/1961', '1961-08-05', '1961-08-05'],
        ['dd/mm/1962', '1962-01-01', '1962-12-31'],
      ],
    );
    assert.deepEqual(first!.nationalities, ['Russia']);
    assert.deepEqual(first!.documents, [
      { type: 'Passport', number: '771199001', country: null },
      { type: 'National identifier', number: '990011223344', country: null },
    ]);
    assert.deepEqual(
      second!.birthDates.map((d) => [d.from, d.to]),
      [['1979-04-01', '1979-04-30']],
    );
  });

  const dates: [string, [string, string] | undefined][] = [
    ['28/04/1937', ['1937-04-28', '1937-04-28']],
    ['00/04/1937', ['1937-04-01', '1937-04-30']],
    ['dd/02/1964', ['1964-02-01', '1964-02-29']],
    ['00/00/1937', ['1937-01-01', '1937-12-31']],
    ['DD/MM/1937', ['1937-01-01', '1937-12-31']],
    ['15/08/19yy', undefined],
    ['1937', undefined],
  ];
  for (const [text, range] of dates) {
    test(`DOB ${text}`, () => {
      const read = readUkDate(text);
      assert.deepEqual(read === undefined ? undefined : [read.from, read.to], range);
    });
  }
});

describe('OpenSanctions FollowTheMoney entities (JSON lines)', () => {
  test('reads sanctioned persons, PEPs with positions from Occupancy and Position, RCAs with their tie', async () => {
    const header: ListHeader = { publishedAt: null };
    const entries = await readAll('opensanctions', createReadStream(fixture('opensanctions.jsonl')), header);
    assert.equal(header.publishedAt, '2026-11-19T08:00:00', 'the latest last_change');
    const byId = new Map(entries.map((e) => [e.reference, e]));
    assert.deepEqual(
      [...byId.keys()].sort(),
      ['NK-testpep1', 'NK-testpep2', 'NK-testrca1', 'NK-testsan1'],
      'neither the crime topic nor the company',
    );
    const pep = byId.get('NK-testpep1')!;
    assert.deepEqual(pep.names, [
      { text: 'Testana Marisova PEPTESTOVA', kind: 'primary', weak: false },
      { text: 'Testana Peptestova', kind: 'alias', weak: false },
      { text: 'Tessa', kind: 'alias', weak: true },
    ]);
    assert.deepEqual(
      pep.birthDates.map((d) => [d.from, d.to]),
      [['1969-03-01', '1969-03-31']],
    );
    assert.deepEqual(pep.nationalities, ['RU']);
    assert.deepEqual(pep.documents, [{ type: 'Passport', number: 'TP 990 0001', country: null }]);
    assert.deepEqual(pep.pep, {
      role: 'pep',
      positions: [
        { title: 'Member of the Test Duma', country: 'RU', start: '2016-10-05', end: '2021-10-12' },
      ],
      relations: [],
    });
    assert.deepEqual(byId.get('NK-testrca1')!.pep, {
      role: 'rca',
      positions: [],
      relations: [{ relationship: 'son', reference: 'NK-testpep1', name: 'Testana Marisova PEPTESTOVA' }],
    });
    assert.deepEqual(byId.get('NK-testpep2')!.pep!.positions, [
      { title: 'Test Mayor of Testville', country: 'BR', start: '2023-01-01', end: null },
    ]);
    const sanctioned = byId.get('NK-testsan1')!;
    assert.equal(sanctioned.pep, undefined, 'a sanction topic: a sanctions entry, no PEP');
    assert.deepEqual(sanctioned.nationalities, ['BY']);
    assert.deepEqual(sanctioned.documents, [{ type: 'Identity number', number: 'TB9900112', country: null }]);
  });

  test('reads the same in 5-byte chunks (lines and UTF-8 characters split)', async () => {
    const bytes = await readFile(fixture('opensanctions.jsonl'));
    const sort = (e: ListEntry[]) => e.sort((a, b) => a.reference.localeCompare(b.reference));
    assert.deepEqual(
      sort(await readAll('opensanctions', chunks(bytes, 5))),
      sort(await readAll('opensanctions', chunks(bytes, 1 << 16))),
    );
  });
});

const person = (id: string) =>
  JSON.stringify({ id, schema: 'Person', properties: { name: ['Testa PERSONA'], topics: ['sanction'] } });

/** Files each refused whole, with what the refusal says. */
const HOSTILE: [string, ListName, string | Buffer, RegExp][] = [
  [
    'the UN list given as the EU list',
    'eu',
    '<CONSOLIDATED_LIST><INDIVIDUALS/></CONSOLIDATED_LIST>',
    /not the EU list/,
  ],
  [
    'the EU list given as the UK list',
    'uk',
    '<export><sanctionEntity/></export>',
    /not the UK Sanctions List/,
  ],
  [
    'an EU list cut off',
    'eu',
    '<export generationDate="x"><sanctionEntity logicalId="1">',
    /not well-formed/,
  ],
  ['a UK list cut off', 'uk', '<Designations><Designation><UniqueID>X', /not well-formed/],
  [
    'an EU list of enterprises only',
    'eu',
    '<export><sanctionEntity logicalId="1"><subjectType code="enterprise"/></sanctionEntity></export>',
    /no person/,
  ],
  [
    'a UK list of ships only',
    'uk',
    '<Designations><Designation><UniqueID>S1</UniqueID><IndividualEntityShip>Ship</IndividualEntityShip></Designation></Designations>',
    /no individual/,
  ],
  [
    'an EU list not UTF-8',
    'eu',
    Buffer.from([0x3c, 0x65, 0x78, 0x70, 0x6f, 0x72, 0x74, 0x3e, 0xff, 0xfe]),
    /not UTF-8/,
  ],
  [
    'an entity in the DTD',
    'uk',
    '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><Designations><Designation><UniqueID>&e;</UniqueID></Designation></Designations>',
    /not well-formed/,
  ],
  ['XML given as OpenSanctions', 'opensanctions', '<export/>\n', /is XML, not JSON lines/],
  [
    'a line that is not JSON',
    'opensanctions',
    `${person('a')}\n{"id": "b", "schema": "Person",\n`,
    /line 2 is not JSON/,
  ],
  [
    'a JSON value that is not an entity',
    'opensanctions',
    `${person('a')}\n[1, 2, 3]\n`,
    /line 2 is not a FollowTheMoney entity/,
  ],
  [
    'properties that are not an object',
    'opensanctions',
    '{"id":"a","schema":"Person","properties":[]}\n',
    /"properties" is not an object/,
  ],
  [
    'a property that is not a list',
    'opensanctions',
    '{"id":"a","schema":"Person","properties":{"name":"x"}}\n',
    /property "name" is not a list/,
  ],
  [
    'a line longer than the limit',
    'opensanctions',
    `${person('a')}\n${' '.repeat(MAX_LINE + 10)}${person('b')}\n`,
    /line 2 is longer than/,
  ],
  [
    'a last line longer than the limit',
    'opensanctions',
    `${person('a')}\n"${'x'.repeat(MAX_LINE + 10)}`,
    /line 2 is longer than/,
  ],
  ['an empty file', 'opensanctions', '\n\n', /empty/],
  [
    'entities of no sanctioned person nor PEP',
    'opensanctions',
    '{"id":"c","schema":"Company","properties":{"name":["X"],"topics":["sanction"]}}\n',
    /no sanctioned person, PEP or RCA/,
  ],
  [
    'OpenSanctions not UTF-8',
    'opensanctions',
    Buffer.concat([Buffer.from(person('a')), Buffer.from([0x0a, 0xc3, 0x28])]),
    /not UTF-8/,
  ],
];

describe('hostile list files are refused with a clear error', () => {
  for (const [what, list, body, message] of HOSTILE) {
    test(what, async () => {
      await assert.rejects(readAll(list, chunks(body, 4096)), message);
    });
  }
});

for (const storeName of storeNames()) {
  describe(`importing the new lists (${storeName})`, () => {
    const context = suiteContext(storeName);
    const source = (body: string | Buffer) => chunks(body, 1024);

    test('each list imports as a version of its own, PEP data kept with the entry', async () => {
      const ctx = context();
      for (const [list, file, entries] of [
        ['eu', 'eu-fsf.xml', 2],
        ['uk', 'uk-sanctions-list.xml', 2],
        ['opensanctions', 'opensanctions.jsonl', 4],
      ] as const) {
        const version = await importList(ctx, {
          list,
          source: createReadStream(fixture(file)),
          actor: 'system',
          origin: 'test',
        });
        assert.equal(version.list, list);
        assert.equal(version.entries, entries, list);
      }
      const row = await ctx.store.db
        .selectFrom('screening_entries')
        .select('entry')
        .where('reference', '=', 'NK-testrca1')
        .executeTakeFirstOrThrow();
      assert.equal((JSON.parse(row.entry) as ListEntry).pep?.role, 'rca');
    });

    test('a file refused half-way leaves nothing of itself behind', async () => {
      const ctx = context();
      const before = await ctx.store.db.selectFrom('screening_lists').select('version_id').execute();
      // 300 good entities (more than one batch written) and then a broken line.
      const body = `${Array.from({ length: 300 }, (_, i) => person(`p${i}`)).join('\n')}\n{"id":\n`;
      await assert.rejects(
        importList(ctx, { list: 'opensanctions', source: source(body), actor: 'system', origin: 'test' }),
        (error: unknown) =>
          error instanceof ServiceError &&
          error.error === 'screeningListInvalid' &&
          /line 301 is not JSON/.test(String(error.params?.['problem'])),
      );
      const after = await ctx.store.db.selectFrom('screening_lists').select('version_id').execute();
      assert.deepEqual(after, before);
      const orphans = await ctx.store.db
        .selectFrom('screening_entries')
        .select('reference')
        .where('reference', '=', 'p0')
        .execute();
      assert.deepEqual(orphans, []);
    });
  });
}
