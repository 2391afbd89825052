import { entry, type CatalogueEntry } from './entry.ts';

/** Sanctions screening (docs/SCREENING.md): operators only; a partner never meets these. */
export const SCREENING_ERRORS = {
  screeningHitUnresolved: entry(
    40940,
    'screening_hit_unresolved',
    'status: cannot move to {to} while {count} sanctions screening hit(s) are unresolved; clear them (two operators) or reject',
    'status: 尚有 {count} 条制裁筛查命中未处理，不能变更为 {to}；请由两名操作员排除或拒绝申请',
  ),
  screeningHitState: entry(
    40941,
    'screening_hit_state',
    'hit_id: the hit is {state}; {action} is not possible now',
    'hit_id: 该命中状态为 {state}，当前不能{action}',
  ),
  screeningNotInForce: entry(
    40960,
    'screening_not_in_force',
    'status: cannot approve while no sanctions list is in force; import one first (cardapply screening import)',
    'status: 尚未导入任何制裁名单，不能批准；请先导入名单（cardapply screening import）',
  ),
  screeningSameOperator: entry(
    40340,
    'screening_same_operator',
    'hit_id: the operator who cleared a hit cannot also confirm it; a second operator must',
    'hit_id: 排除命中的操作员不能自己确认，须由另一名操作员确认',
  ),
  screeningHitNotFound: entry(
    40440,
    'screening_hit_not_found',
    'hit_id: no such screening hit',
    'hit_id: 筛查命中不存在',
  ),
  screeningListInvalid: entry(
    42293,
    'screening_list_invalid',
    'file: is not a {list} list file: {problem}',
    'file: 不是有效的 {list} 名单文件：{problem}',
  ),
} as const satisfies Record<string, CatalogueEntry>;
