import type { SCREENING_ERRORS } from '../catalogue/screeningErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

/** Sanctions screening: hits, their four-eyes resolution, and list files. */
export const SCREENING_GUIDANCE: { readonly [K in keyof typeof SCREENING_ERRORS]: Guidance } = {
  screeningHitUnresolved: {
    cause: 'Screening matched the applicant to a sanctions list entry and the hit is not resolved.',
    remedy:
      'Review the hit beside the applicant: clear it as a false positive with a note and have a second operator confirm, or reject with `sanctions_hit`.',
  },
  screeningHitState: {
    cause: 'The hit has moved on: confirming needs a cleared-by-one hit, clearing an unresolved one.',
    remedy: 'Read the application again and act on the hit as it is now.',
  },
  screeningNotInForce: {
    cause:
      'No sanctions list has been imported on this deployment, so the applicant was never screened; `SCREENING_REQUIRED` is on.',
    remedy:
      'Import the UN and OFAC lists (docs/SCREENING.md, "Where each list is published"); the application is screened by the re-screen that follows, then approve.',
  },
  screeningSameOperator: {
    cause: 'Four eyes: the operator who cleared the hit tried to confirm it too.',
    remedy: 'Ask a second reviewer or admin to confirm.',
  },
  screeningHitNotFound: {
    cause: 'No hit with that id belongs to the application.',
    remedy: 'Take the hit id from the application view.',
  },
  screeningListInvalid: {
    cause:
      'The file is not in the format of the named list (not well-formed XML, another root, a line that is not a FollowTheMoney entity or too long), lists no individual, or is not UTF-8. Nothing of it was imported.',
    remedy:
      'Import the file as published (UN consolidated.xml, OFAC SDN.XML, EU FSF XML, UK_Sanctions_List.xml, OpenSanctions entities.ftm.json) and name the right list.',
  },
};
