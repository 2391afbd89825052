import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Secret, TOTP } from 'otpauth';

/**
 * RFC 6238 appendix B: the test vectors of the TOTP computation the second factor relies on, run
 * through `otpauth` as `totp.ts` configures it (except the 8 digits of the vectors).
 */
const VECTORS: [number, string, string, string][] = [
  // [Unix seconds, SHA1, SHA256, SHA512]
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];
const SEEDS = {
  SHA1: '12345678901234567890',
  SHA256: '12345678901234567890123456789012',
  SHA512: '1234567890123456789012345678901234567890123456789012345678901234',
} as const;

test('RFC 6238 test vectors, through otpauth', () => {
  for (const [seconds, ...codes] of VECTORS) {
    (['SHA1', 'SHA256', 'SHA512'] as const).forEach((algorithm, i) => {
      const totp = new TOTP({ algorithm, digits: 8, period: 30, secret: Secret.fromUTF8(SEEDS[algorithm]) });
      assert.equal(totp.generate({ timestamp: seconds * 1000 }), codes[i], `${algorithm} at ${seconds}`);
      assert.equal(totp.validate({ token: codes[i]!, timestamp: seconds * 1000, window: 1 }), 0);
    });
  }
});

test('a code is valid one step either side and no further (the window of a sign-in)', () => {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromUTF8(SEEDS.SHA1) });
  const at = 1_234_567_890_000;
  const code = totp.generate({ timestamp: at });
  assert.equal(totp.validate({ token: code, timestamp: at + 30_000, window: 1 }), -1);
  assert.equal(totp.validate({ token: code, timestamp: at - 30_000, window: 1 }), 1);
  assert.equal(totp.validate({ token: code, timestamp: at + 90_000, window: 1 }), null);
});
