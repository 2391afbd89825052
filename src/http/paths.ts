/** Every partner path, in one place. The spec fixes the submit path; PRODUCT.md the others. */
const OPEN = '/mc-platformapi/v1/open';
const APPLY = `${OPEN}/et/vs/card/apply`;
const WEBHOOKS = `${OPEN}/et/vs/card/webhooks`;
const SUBJECT_REQUESTS = `${OPEN}/et/vs/card/subject-requests`;

export const PATHS = {
  token: `${OPEN}/auth/token`,
  apply: APPLY,
  query: `${APPLY}/query`,
  list: `${APPLY}/list`,
  validate: `${APPLY}/validate`,
  cancel: `${APPLY}/cancel`,
  amend: `${APPLY}/amend`,
  simulate: `${APPLY}/simulate`,
  codes: `${OPEN}/et/vs/card/codes`,
  events: `${OPEN}/et/vs/card/events/list`,
  webhookRegister: `${WEBHOOKS}/register`,
  webhookList: `${WEBHOOKS}/list`,
  webhookShow: `${WEBHOOKS}/show`,
  webhookRotateSecret: `${WEBHOOKS}/rotate-secret`,
  webhookDisable: `${WEBHOOKS}/disable`,
  webhookEnable: `${WEBHOOKS}/enable`,
  webhookDelete: `${WEBHOOKS}/delete`,
  webhookTest: `${WEBHOOKS}/test`,
  webhookDeliveries: `${WEBHOOKS}/deliveries`,
  webhookRedeliver: `${WEBHOOKS}/redeliver`,
  subjectRequests: SUBJECT_REQUESTS,
  subjectRequestQuery: `${SUBJECT_REQUESTS}/query`,
  subjectRequestList: `${SUBJECT_REQUESTS}/list`,
  subjectRequestDownload: `${SUBJECT_REQUESTS}/download`,
} as const;
