import type { SUBJECT_ERRORS } from '../catalogue/subjectErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

/** An applicant's request through the partner. */
export const SUBJECT_GUIDANCE: { readonly [K in keyof typeof SUBJECT_ERRORS]: Guidance } = {
  subjectRequestNotFound: {
    cause: 'No subject request of this app has that id; another app’s answers the same.',
    remedy: 'Use the `request_id` the request answered, or list your subject requests to find it.',
  },
  subjectRequestOpen: {
    cause:
      'A request of the same kind for the same person (every application of theirs at this partner, matched by identity document) is received or in progress; `data.request_id` names it.',
    remedy: 'Query that request and wait for its end; ask again only once it has ended.',
  },
};
