import type { SUBJECT_EXPORT_ERRORS } from '../catalogue/subjectExportErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

/** The download of an access or portability export. */
export const SUBJECT_EXPORT_GUIDANCE: { readonly [K in keyof typeof SUBJECT_EXPORT_ERRORS]: Guidance } = {
  subjectExportNotReady: {
    cause:
      'The request is an access or portability request still being answered (its `export.ready` is false and it has not ended), or a correction or deletion request, which has no export.',
    remedy:
      'Wait for the request to end `completed` (its webhook, or query it) and download then; only access and portability requests have an export.',
  },
  subjectExportDelivered: {
    cause:
      'The export is delivered once: it was downloaded at `export.fetched_at` and erased in the same step. Nothing of it is kept.',
    remedy:
      'Use the copy downloaded then. If it was lost, forward a new access or portability request for the person.',
  },
  subjectExportExpired: {
    cause:
      'The export was not downloaded within `SUBJECT_EXPORT_HOURS` (72 by default) of being ready, at `export.expires_at`, and was erased.',
    remedy: 'Forward a new access or portability request for the person and download its export in time.',
  },
};
