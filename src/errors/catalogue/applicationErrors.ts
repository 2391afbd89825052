import { entry, type CatalogueEntry } from './entry.ts';

/**
 * An application: finding it, a duplicate, a move its status does not allow, a claim for review,
 * and viewing what it holds (its documents, its identity data).
 */
export const APPLICATION_ERRORS = {
  // 403
  documentNotOpened: entry(
    40320,
    'document_not_opened',
    'busi_water_no: open the application for review, or reveal {field}, in this session before viewing its document',
    'busi_water_no: 请先在本次会话中打开审核或查看 {field} 明文，再查看其文件',
  ),
  // 404
  applicationNotFound: entry(
    40401,
    'application_not_found',
    'busi_water_no: no such application',
    'busi_water_no: 申请不存在',
  ),
  documentNotKept: entry(
    40420,
    'document_not_kept',
    'field: {field} has no kept document (it is {state})',
    'field: {field} 没有留存的文件（当前状态：{state}）',
  ),
  documentNoPreview: entry(
    40421,
    'document_no_preview',
    'field: {field} has no preview; its original is a download only',
    'field: {field} 没有预览，原件仅供下载',
  ),
  // 409: the request conflicts with what is stored.
  duplicateApplication: entry(
    40901,
    'duplicate_application',
    'cert_id: an active application for this document already exists',
    'cert_id: 该证件已有进行中的申请',
  ),
  cardNoTaken: entry(
    40902,
    'card_no_taken',
    'card_no: this card number is already taken',
    'card_no: 该卡号已被占用',
  ),
  transitionNotAllowed: entry(
    40905,
    'transition_not_allowed',
    'status: cannot move from {from} to {to}',
    'status: 不能从 {from} 变更为 {to}',
  ),
  concurrentChange: entry(
    40906,
    'concurrent_change',
    'busi_water_no: the application was changed by someone else; read it again',
    'busi_water_no: 申请已被他人修改，请重新读取',
  ),
  claimNotPossible: entry(
    40972,
    'claim_not_possible',
    'busi_water_no: only an application in review can be claimed; it is {status}',
    'busi_water_no: 仅审核中的申请可以认领，当前状态为 {status}',
  ),
  applicationClaimed: entry(
    40973,
    'application_claimed',
    'busi_water_no: {holder} holds this application for review',
    'busi_water_no: 该申请已由 {holder} 认领审核',
  ),
  claimNotHeld: entry(
    40974,
    'claim_not_held',
    'busi_water_no: you hold no claim on this application; claim it first',
    'busi_water_no: 您未认领该申请，请先认领',
  ),
  externalIdTaken: entry(
    40921,
    'external_id_taken',
    'external_id: is already the reference of an active application of this app',
    'external_id: 已被本应用的另一笔有效申请使用',
  ),
  // 423: the application is not open to the partner's change now.
  amendNotOpen: entry(
    42310,
    'amend_not_open',
    "status: the application is {status}; an amend is accepted only while it is SUPPLEMENT_REQUIRED, once for each operator's request for information",
    'status: 申请当前为 {status}；仅在审核员要求补充资料（SUPPLEMENT_REQUIRED）期间可提交补充，每次要求提交一次',
  ),
  // 429
  revealsLimited: entry(
    42970,
    'reveals_limited',
    'purpose: at most {limit} reveals an hour; retry after {retry_after} seconds',
    'purpose: 每小时最多查看 {limit} 次明文，请在 {retry_after} 秒后重试',
  ),
} as const satisfies Record<string, CatalogueEntry>;
