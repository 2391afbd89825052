import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mainlandId, validApplicant } from '../helpers/applicantFixture.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { PATHS } from '../../src/http/paths.ts';
import { post, startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * "Today" is the date in the business time zone (BUSINESS_TIMEZONE, default Asia/Shanghai), not in
 * UTC: with the service's clock set to 17:30 UTC (01:30 the next day in Beijing) and to 01:30 UTC
 * (09:30 the same day in Beijing), the validate-only call gives the Beijing answers for age and
 * document expiry.
 */

const DAY_MS = 86_400_000;
/** Today's UTC date at 00:00, and the dates around it, as YYYY-MM-DD. */
const midnight = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (offset: number) => new Date(midnight + offset * DAY_MS).toISOString().slice(0, 10);
const EVENING = midnight + 17.5 * 3_600_000; // 17:30 UTC: tomorrow in Beijing
const MORNING = midnight + 1.5 * 3_600_000; // 01:30 UTC: today in Beijing

/** Someone who turns 18 on the given date (a 29 February birthday is avoided by the caller's luck). */
function turning18On(date: string) {
  const birthday = `${Number(date.slice(0, 4)) - 18}${date.slice(4)}`;
  return validApplicant({ birthday, sex: 'M', cert_id: mainlandId('440305', birthday, '123') });
}

/** The validate-only answer with the service's clock at `at`: a partner authenticated at that time. */
async function validateAt(service: TestService, at: number, body: Record<string, unknown>) {
  Object.assign(service.ctx, { now: () => at });
  const app = await createApp(service.ctx.store.db, 'clock test', at);
  const timestamp = Math.floor(at / 1000);
  const token = await post(service.baseUrl, PATHS.token, {
    app_id: app.app_id,
    app_secret: app.app_secret,
    timestamp,
  });
  assert.equal(token.status, 200, token.text);
  const accessToken = (token.body.data as { access_token: string }).access_token;
  const reply = await post(
    service.baseUrl,
    PATHS.validate,
    { ...body, app_id: app.app_id, timestamp },
    { token: accessToken },
  );
  if (reply.status === 200) return 'valid';
  return (reply.body.data as { errors: { field: string; code: number }[] }).errors
    .map((e) => `${e.field}:${e.code}`)
    .join(' ');
}

for (const storeName of storeNames()) {
  describe(`the business day on ${storeName}`, () => {
    const leapDay = day(1).endsWith('02-29') || day(0).endsWith('02-29');

    test(
      'Asia/Shanghai (the default): the Beijing date at 17:30 and at 01:30 UTC',
      { skip: leapDay },
      async () => {
        const service = await startService(storeName);
        try {
          // Turns 18 on tomorrow's UTC date: of age at 17:30 UTC (Beijing is there), not at 01:30.
          assert.equal(await validateAt(service, EVENING, turning18On(day(1))), 'valid');
          assert.equal(await validateAt(service, MORNING, turning18On(day(1))), 'birthday:42212');
          // Turned 18 today (UTC date): of age at both times.
          assert.equal(await validateAt(service, MORNING, turning18On(day(0))), 'valid');
          // A document ending today (UTC date) has expired at 17:30 UTC (tomorrow in Beijing), not at 01:30.
          const endsToday = validApplicant({ cert_end_date: day(0) });
          assert.equal(await validateAt(service, EVENING, endsToday), 'cert_end_date:42214');
          assert.equal(await validateAt(service, MORNING, endsToday), 'valid');
          // A document starting tomorrow (UTC date) has started at 17:30 UTC in Beijing.
          const startsTomorrow = validApplicant({ cert_start_date: day(1) });
          assert.equal(await validateAt(service, EVENING, startsTomorrow), 'valid');
          assert.equal(await validateAt(service, MORNING, startsTomorrow), 'cert_start_date:42211');
        } finally {
          await service.close();
        }
      },
    );

    test('BUSINESS_TIMEZONE=UTC gives the UTC answers', { skip: leapDay }, async () => {
      const service = await startService(storeName, { BUSINESS_TIMEZONE: 'UTC' });
      try {
        assert.equal(await validateAt(service, EVENING, turning18On(day(1))), 'birthday:42212');
        assert.equal(await validateAt(service, EVENING, validApplicant({ cert_end_date: day(0) })), 'valid');
      } finally {
        await service.close();
      }
    });
  });
}
