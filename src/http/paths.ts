/** Every caller path, in one place. The spec fixes the submit path; PRODUCT.md the others. */
const OPEN = '/mc-platformapi/v1/open';
const APPLY = `${OPEN}/et/vs/card/apply`;

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
} as const;
