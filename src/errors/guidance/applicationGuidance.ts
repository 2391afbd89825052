import type { APPLICATION_ERRORS } from '../catalogue/applicationErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

/** An application: finding it, duplicates, moves, claims and viewing its identity data. */
export const APPLICATION_GUIDANCE: { readonly [K in keyof typeof APPLICATION_ERRORS]: Guidance } = {
  documentNotOpened: {
    cause:
      'A kept document is identity data: it is served only after an audited opening for review (or a reveal of that image field) by the same operator in the same session.',
    remedy:
      'Claim the application and open it for review (or reveal the field) with a purpose, then view it.',
  },
  applicationNotFound: {
    cause:
      'No application of this app has that serial number (or `external_id`); another app’s answers the same.',
    remedy:
      'Check the serial (32 characters, as the submit answered) or the reference; list your applications to find it.',
  },
  documentNotKept: {
    cause:
      'The image field has no kept copy: its fetch is still pending, it failed (see its reason in the view), or the application carries no such image.',
    remedy:
      'Wait for a pending document; for a failed one, ask the partner for it again (SUPPLEMENT_REQUIRED with `image_missing`).',
  },
  documentNoPreview: {
    cause:
      'The service draws a preview of a kept JPEG, PNG or WebP only: a PDF or a HEIC has none, nor an image kept before previews were drawn or one its image library could not decode.',
    remedy:
      'Download the original (`GET .../documents/{field}`, an attachment) and check it against its SHA-256 in the application view.',
  },
  duplicateApplication: {
    cause:
      'The identity document already has an application that is not final (its number read canonically). The submit, the validate-only call and the amend answer it alike.',
    remedy:
      'If it is yours, `data.busi_water_no` names it: query it instead; submit again only once it is final.',
  },
  cardNoTaken: {
    cause:
      'The requested `card_no` belongs to another application (answered by the submit, the validate-only call and the amend).',
    remedy: 'Request another number, or leave `card_no` out and let the service draw one.',
  },
  transitionNotAllowed: {
    cause: 'The application’s current state does not allow this move (both states are named).',
    remedy: 'Query the application: its state no longer allows this move.',
  },
  amendNotOpen: {
    cause:
      'An amend reached an application that is not waiting for information: already amended (back in review), never asked, or decided. `data.status` is its state.',
    remedy:
      'Amend only after an `application.supplement_required` event (or a status view whose `requested_fields` is set), and once for each; query the application to see where it is.',
  },
  concurrentChange: {
    cause:
      'The application changed between the read the move was based on and the move (another operator, the partner, a job).',
    remedy: 'Read it again, decide again, and send the new `version`.',
  },
  claimNotPossible: {
    cause: 'A claim was asked for an application that is not in review.',
    remedy: 'Claim only applications in IN_REVIEW; reload to see its state.',
  },
  applicationClaimed: {
    cause: 'Another reviewer holds the application for review (the message names who).',
    remedy: 'Pick another application, or ask the holder to release it.',
  },
  claimNotHeld: {
    cause: 'A reviewer acted on an application in review without holding its claim.',
    remedy: 'Claim the application first, then act.',
  },
  externalIdTaken: {
    cause:
      'Another application of this app that is not final already carries this `external_id`; `data.busi_water_no` names it. The submit and the validate-only call answer it alike.',
    remedy: 'Query that application by its reference; use a new reference for a new application.',
  },
  revealsLimited: {
    cause: 'The operator revealed more masked fields in the last hour than allowed.',
    remedy: 'Wait `Retry-After` seconds; reveal only what the review needs.',
  },
};
