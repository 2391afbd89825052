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
  subjectRequestEnded: {
    cause: 'The request is completed, restricted or refused: an ended request does not change again.',
    remedy:
      'Read it (its state, reason and date are final); the partner forwards a new request if the applicant asks again.',
  },
  subjectRequestNotOpen: {
    cause: 'Only a received request is started; this one is already in progress or ended.',
    remedy: 'Reload the request and act on its current state.',
  },
  subjectRequestWrongKind: {
    cause:
      'The deletion decision answers a deletion request, and the request for information a correction request; this request is of another kind.',
    remedy: 'Use the action of the request’s kind, or refuse it with a reason.',
  },
  subjectDeletionInProgress: {
    cause:
      'An application the deletion covers is still in progress: neither erased nor kept under record keeping while it is decided.',
    remedy:
      'Wait until it ends (the partner may cancel it), then decide the deletion; or refuse the request with a reason.',
  },
  subjectApplicationNotCovered: {
    cause: 'The application named is not one of the applications the request covers (`applications`).',
    remedy: 'Name one of the serials the request lists.',
  },
};
