import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { gb11643CheckDigit, hkidCheckDigit } from '../../src/applications/validation/checks/identity.ts';
import { validApplicant } from '../helpers/applicantFixture.ts';
import type { ApplicationRequest } from '../../src/record/schema.ts';
import { PATHS } from '../../src/http/paths.ts';
import { writtenForms } from '../helpers/documentForms.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startService,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * The canonical-form property over HTTP, on every store: any spacing, case, bracket and full-width
 * variant of a valid document number validates like the number itself, and the duplicate check
 * takes it for the same document: submit one form, and another form is a 409 naming the first.
 */
const RUNS = 20;

for (const storeName of storeNames()) {
  describe(`one document however it is written, on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let seq = 0;

    before(async () => {
      service = await startService(storeName);
      partner = await newPartner(service);
    });
    after(() => service.close());

    const send = (path: string, application: ApplicationRequest) =>
      post(
        service.baseUrl,
        path,
        { ...application, app_id: partner.appId, timestamp: nowSeconds() },
        { token: partner.token },
      );

    /**
     * Submits one written form, validates and submits another: both answer the duplicate of the
     * first (validate-only runs the submit's checks, its conflicts included), so the second form
     * passed every field check and was read as the same document.
     */
    const collide = async (application: ApplicationRequest, first: string, second: string) => {
      const stored = await send(PATHS.apply, { ...application, cert_id: first });
      assert.equal(stored.status, 200, `${first}: ${stored.text}`);
      const validated = await send(PATHS.validate, { ...application, cert_id: second });
      assert.equal(validated.status, 409, `${second}: ${validated.text}`);
      assert.deepEqual(validated.body.data, stored.body.data);
      const again = await send(PATHS.apply, { ...application, cert_id: second });
      assert.equal(again.status, 409, `${first} then ${second}: ${again.text}`);
      assert.deepEqual(again.body.data, stored.body.data);
    };

    test('Hong Kong identity cards', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.stringMatching(/^[A-Z]{1,2}$/).chain((prefix) => {
            const digits = String(200000 + seq++);
            const id = `${prefix}${digits}${hkidCheckDigit(prefix, digits)}`;
            return fc.tuple(writtenForms(id, id.length - 1), writtenForms(id, id.length - 1));
          }),
          async ([first, second]) => {
            const hongKong = validApplicant({
              country: 'HK',
              cert_start_date: undefined,
              name: '陳大文',
              name_en: 'CHAN TAI MAN',
              address: '香港九龍旺角彌敦道688號',
              mob_no: '91234567',
              mob_no_of: '+852',
            });
            await collide(hongKong, first, second);
          },
        ),
        { numRuns: RUNS },
      );
    });

    test('mainland identity cards and passports', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constant(null).chain(() => {
            const n = seq++;
            const birthday = new Date(Date.UTC(1971, 0, 1 + n)).toISOString().slice(0, 10);
            const body = `440305${birthday.replaceAll('-', '')}${String((n % 400) * 2 + 1).padStart(3, '0')}`;
            const id = body + gb11643CheckDigit(body);
            const passport = `E${String(10000000 + n)}`;
            return fc.tuple(
              fc.constant(birthday),
              writtenForms(id, 17),
              writtenForms(id, 17),
              writtenForms(passport, passport.length - 1),
              writtenForms(passport, passport.length - 1),
            );
          }),
          async ([birthday, first, second, passportFirst, passportSecond]) => {
            const applicant = validApplicant({ birthday, sex: 'M' });
            await collide(applicant, first, second);
            await collide({ ...applicant, cert_type: '02' }, passportFirst, passportSecond);
          },
        ),
        { numRuns: RUNS },
      );
    });
  });
}
