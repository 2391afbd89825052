import { entry } from './entry.ts';

/** An applicant's request through the partner (PIPL articles 45 to 47): finding it, a second one while one is open. */
export const SUBJECT_ERRORS = {
  // 404
  subjectRequestNotFound: entry(
    40460,
    'subject_request_not_found',
    'request_id: no such subject request',
    'request_id: 个人信息权利请求不存在',
  ),
  // 409
  subjectRequestOpen: entry(
    40990,
    'subject_request_open',
    'kind: a {kind} request for this person is still open',
    'kind: 该个人的 {kind} 请求尚未办结',
  ),
  subjectRequestEnded: entry(
    40995,
    'subject_request_ended',
    'request_id: the request has already ended ({status})',
    'request_id: 该请求已办结（{status}）',
  ),
  subjectRequestNotOpen: entry(
    40996,
    'subject_request_not_received',
    'request_id: the request is {status}; only a received request is started',
    'request_id: 该请求状态为 {status}；只有已接收的请求可开始办理',
  ),
  subjectRequestWrongKind: entry(
    40997,
    'subject_request_wrong_kind',
    'request_id: this action answers a {expected} request, not a {kind} one',
    'request_id: 此操作用于 {expected} 请求，而非 {kind} 请求',
  ),
  subjectDeletionInProgress: entry(
    40999,
    'subject_deletion_in_progress',
    'busi_water_no: application {busi_water_no} the request covers is still in progress ({status})',
    'busi_water_no: 该请求涵盖的申请 {busi_water_no} 仍在办理中（{status}）',
  ),
  // 422
  subjectApplicationNotCovered: entry(
    42295,
    'subject_application_not_covered',
    'busi_water_no: the request does not cover this application',
    'busi_water_no: 该请求不涵盖此申请',
  ),
};
