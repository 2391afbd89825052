import { problem } from '../../errors/problems.ts';
import { ValidationError } from '../../errors/serviceError.ts';
import type { ListPosition } from '../../record/applicationRepository.ts';
import { isSerialNumber } from '../../record/serialNumber.ts';

/**
 * The opaque cursor of application listings: base64url of `1.<created_at ms>.<busi_water_no>`, the
 * last row of the page. The next page starts strictly after it in (created_at, busi_water_no)
 * order, so applications that arrive meanwhile neither shift nor repeat anything. A listing by risk
 * tier leads with the row's rank: `2.<risk_rank>.<created_at ms>.<busi_water_no>`.
 */
const VERSION = '1';
const BY_RISK = '2';

export function encodeCursor(position: ListPosition): string {
  const text =
    position.riskRank === undefined
      ? `${VERSION}.${position.createdAt}.${position.busiWaterNo}`
      : `${BY_RISK}.${position.riskRank}.${position.createdAt}.${position.busiWaterNo}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, field = 'cursor'): ListPosition {
  const invalid = () =>
    new ValidationError([
      problem(field, 'fieldFormat', {
        rule: 'is not a cursor returned by this listing',
        rule_zh: '不是本列表返回的游标',
      }),
    ]);
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(cursor)) throw invalid();
  const all = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  const byRisk = all[0] === BY_RISK;
  const rank = byRisk ? all[1] : undefined;
  const parts = byRisk ? [VERSION, ...all.slice(2)] : all;
  const [version, createdAt, busiWaterNo] = parts;
  if (
    (byRisk && (rank === undefined || !/^[0-4]$/.test(rank))) ||
    parts.length !== 3 ||
    version !== VERSION ||
    createdAt === undefined ||
    !/^[0-9]{1,16}$/.test(createdAt) ||
    busiWaterNo === undefined ||
    !isSerialNumber(busiWaterNo)
  ) {
    throw invalid();
  }
  return {
    createdAt: Number(createdAt),
    busiWaterNo,
    ...(rank === undefined ? {} : { riskRank: Number(rank) }),
  };
}
