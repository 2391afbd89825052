import { PDFDocument } from 'pdf-lib';
import { DocumentFailure } from './outcome.ts';

/**
 * A PDF whose end is in place (structure.ts) is parsed whole with pdf-lib, a maintained PDF parser:
 * every object, the cross-reference, the trailer's catalogue and its page tree. A file that only
 * begins `%PDF-` (an HTML page behind the header) has no catalogue or no page and is refused
 * (`not_a_document`). The file is at most DOCUMENT_MAX_BYTES; the caller checks one at a time.
 */
export async function checkPdf(bytes: Uint8Array): Promise<{ pages: number }> {
  let pages: number;
  try {
    const document = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      throwOnInvalidObject: true,
      updateMetadata: false,
    });
    pages = document.getPageCount();
  } catch {
    throw new DocumentFailure('not_a_document', 'a PDF that does not parse');
  }
  if (pages < 1) throw new DocumentFailure('not_a_document', 'a PDF without a page');
  return { pages };
}
