import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { describe, test } from 'node:test';
import {
  readBirthDate,
  type ListEntry,
  type ListHeader,
  type ListName,
} from '../../src/screening/listEntry.ts';
import { readList } from '../../src/screening/readList.ts';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

async function readAll(list: ListName, source: AsyncIterable<string | Uint8Array>, header?: ListHeader) {
  const entries: ListEntry[] = [];
  for await (const entry of readList(list, source, header)) entries.push(entry);
  return entries;
}

/** The file in chunks of `size` bytes: a record split across chunks must read the same. */
async function* chunks(bytes: Buffer, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

describe('UN Consolidated List', () => {
  test('reads individuals with names, aliases, dates, nationalities and documents; no entities', async () => {
    const header: ListHeader = { publishedAt: null };
    const entries = await readAll('un', createReadStream(fixture('un-consolidated.xml')), header);
    assert.equal(header.publishedAt, '2026-11-20T10:00:00.000Z');
    assert.deepEqual(
      entries.map((e) => e.reference),
      ['QDi.901', 'KPi.902', 'CFi.903'],
    );
    const [first, second, third] = entries;
    assert.deepEqual(first!.names, [
      { text: 'TESTAMIR QADIR BALOUTI', kind: 'primary', weak: false },
      { text: 'تستامير قادر بلوطي', kind: 'original_script', weak: false },
      { text: 'Testamir al-Balouti', kind: 'alias', weak: false },
      { text: 'Abu Qadir', kind: 'alias', weak: true },
    ]);
    assert.deepEqual(first!.birthDates, [
      { text: '1971-04-02', from: '1971-04-02', to: '1971-04-02' },
      { text: 'circa 1973', from: '1972-01-01', to: '1974-12-31' },
    ]);
    assert.deepEqual(first!.nationalities, ['Afghanistan', 'Pakistan']);
    assert.deepEqual(first!.documents, [{ type: 'Passport', number: 'TZ 990 1234', country: 'Afghanistan' }]);
    assert.equal(second!.names[1]!.text, '卓汉桥');
    assert.deepEqual(second!.birthDates, [{ text: '1966-1968', from: '1966-01-01', to: '1968-12-31' }]);
    assert.equal(third!.names[0]!.text, 'Élodie MARCHETTI-DRAVEN');
  });

  test('reads the same in 7-byte chunks (records and UTF-8 characters split)', async () => {
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(fixture('un-consolidated.xml'));
    const whole = await readAll('un', createReadStream(fixture('un-consolidated.xml')));
    assert.deepEqual(await readAll('un', chunks(bytes, 7)), whole);
  });

  test('refuses another list, malformed XML and text that is not UTF-8', async () => {
    await assert.rejects(readAll('un', createReadStream(fixture('ofac-sdn.xml'))), /not the UN list/);
    await assert.rejects(
      readAll('un', chunks(Buffer.from('<CONSOLIDATED_LIST><INDIVIDUALS>'), 5)),
      /not well-formed/,
    );
    await assert.rejects(readAll('un', chunks(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0xfe]), 5)), /not UTF-8/);
    await assert.rejects(readAll('un', chunks(Buffer.from(''), 5)), /root element/);
  });

  test('an entity in the DTD is not expanded', async () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><REFERENCE_NUMBER>X</REFERENCE_NUMBER><FIRST_NAME>&e;</FIRST_NAME></INDIVIDUAL></INDIVIDUALS></CONSOLIDATED_LIST>';
    await assert.rejects(readAll('un', chunks(Buffer.from(xml), 64)), /not well-formed/);
  });
});

describe('OFAC SDN list', () => {
  test('reads individuals only, with akas (weak marked), dates, nationalities and identity documents', async () => {
    const header: ListHeader = { publishedAt: null };
    const entries = await readAll('ofac-sdn', createReadStream(fixture('ofac-sdn.xml')), header);
    assert.equal(header.publishedAt, '11/20/2026');
    assert.deepEqual(
      entries.map((e) => e.reference),
      ['990001', '990002'],
    );
    const [first, second] = entries;
    assert.deepEqual(first!.names, [
      { text: 'Testovan Petrovich KRAVCHENKOV', kind: 'primary', weak: false },
      { text: 'Testovan KRAVCHENKOV', kind: 'alias', weak: false },
      { text: 'THE TESTER', kind: 'alias', weak: true },
    ]);
    assert.deepEqual(first!.documents, [{ type: 'Passport', number: '7599 123456', country: 'Russia' }]);
    assert.deepEqual(first!.nationalities, ['Russia']);
    assert.deepEqual(
      first!.birthDates.map((d) => [d.from, d.to]),
      [
        ['1962-02-14', '1962-02-14'],
        ['1962-01-01', '1964-12-31'],
      ],
    );
    assert.deepEqual(
      second!.birthDates.map((d) => [d.from, d.to]),
      [['1975-01-01', '1977-12-31']],
    );
    assert.deepEqual(second!.nationalities, ['Korea, North']);
  });
});

describe('readBirthDate', () => {
  const cases: [string, [string, string] | undefined][] = [
    ['1964-03-13', ['1964-03-13', '1964-03-13']],
    ['13 Mar 1964', ['1964-03-13', '1964-03-13']],
    ['Feb 1964', ['1964-02-01', '1964-02-29']],
    ['1964', ['1964-01-01', '1964-12-31']],
    ['circa 1964', ['1963-01-01', '1965-12-31']],
    ['1962 to 1964', ['1962-01-01', '1964-12-31']],
    ['sometime', undefined],
    ['31 Foo 1964', undefined],
  ];
  for (const [text, range] of cases) {
    test(text, () => {
      const read = readBirthDate(text);
      assert.deepEqual(read === undefined ? undefined : [read.from, read.to], range);
    });
  }
});
