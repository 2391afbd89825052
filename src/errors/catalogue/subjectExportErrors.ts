import { entry } from './entry.ts';

/** The download of an access or portability export (docs/PRIVACY.md): not ready, delivered, expired. */
export const SUBJECT_EXPORT_ERRORS = {
  // 409
  subjectExportNotReady: entry(
    40998,
    'subject_export_not_ready',
    'request_id: the export of this request is not ready',
    'request_id: 该请求的导出文件尚未生成',
  ),
  // 410
  subjectExportDelivered: entry(
    41060,
    'subject_export_delivered',
    'request_id: the export of this request was already downloaded',
    'request_id: 该请求的导出文件已被下载',
  ),
  subjectExportExpired: entry(
    41061,
    'subject_export_expired',
    'request_id: the export of this request has expired',
    'request_id: 该请求的导出文件已过期',
  ),
};
