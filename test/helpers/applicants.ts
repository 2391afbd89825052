import { mainlandId, validApplicant } from './applicantFixture.ts';
import type { ApplicationRequest } from '../../src/record/schema.ts';
import { nowSeconds } from './service.ts';

/**
 * The n-th of many distinct valid applicants (own identity number, birthday to match), so that
 * load and concurrency tests never trip the duplicate-document check. Good for 500 × 3650 numbers.
 */
export function uniqueApplicant(
  n: number,
  appId: string,
  overrides: Partial<ApplicationRequest> = {},
): ApplicationRequest {
  const day = Math.floor(n / 500);
  const birth = new Date(Date.UTC(1970, 0, 1 + day));
  const birthday = birth.toISOString().slice(0, 10);
  // An odd sequence number: the 17th digit's parity says male, as `sex` does.
  const sequence = String(((n % 500) * 2 + 1) % 1000).padStart(3, '0');
  return validApplicant({
    app_id: appId,
    timestamp: nowSeconds(),
    birthday,
    sex: 'M',
    cert_id: mainlandId('440305', birthday, sequence),
    ...overrides,
  });
}
