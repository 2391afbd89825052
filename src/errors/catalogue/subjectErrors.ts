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
};
