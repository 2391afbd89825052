import { ADMIN } from '../api.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { fieldLabel, IMAGES, revealControl } from './applicationFields.js';

/**
 * The application's documents as the service kept them, never loaded from the partner's URL: the
 * operator's browser tells the partner nothing, and the console's CSP allows images from itself
 * only. Once the field is revealed or the application opened for review (that audit row covers
 * the viewing), an image shows the preview the service drew of it
 * (`/applications/{serial}/documents/{field}/preview`: re-encoded, no metadata, no byte of the
 * partner's file), with the original beside it as a download only, and its SHA-256, the evidence,
 * in full; a PDF, a HEIC or an image kept without a preview is the download alone. A document not
 * kept shows its state: pending, or failed with the reason; when an amend's newer document is
 * pending or failed, the copy kept of the one before is shown, marked as previous.
 */

/** @typedef {import('./applicationFields.js').FieldsInput} FieldsInput */
/**
 * @typedef {{ type?: string, size?: number, sha256?: string, width?: number, height?: number }} KeptCopy
 * @typedef {KeptCopy & { state: 'pending' | 'kept' | 'failed', reason?: string, preview?: boolean,
 *   previous?: KeptCopy }} DocumentOutcome
 */

/** @param {string} serial @param {string} field */
export const documentUrl = (serial, field) =>
  `${ADMIN}/applications/${encodeURIComponent(serial)}/documents/${encodeURIComponent(field)}`;

/** @param {number} bytes */
const size = (bytes) =>
  bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;

/**
 * The kept copy's facts and its SHA-256 in full; once opened, the original's download.
 * @param {KeptCopy} d @param {Node | null} download
 */
function facts(d, download) {
  const parts = [d.type ?? '', size(d.size ?? 0)];
  if (d.width !== undefined && d.height !== undefined) parts.push(`${d.width}×${d.height}`);
  return h(
    'span',
    { class: 'small muted document-facts' },
    parts.join(' · '),
    h(
      'span',
      { class: 'document-sha256' },
      h('span', {}, t('documents.sha256')),
      ' ',
      h('code', { class: 'mono' }, d.sha256 ?? ''),
    ),
    download,
  );
}

/** @param {string} serial @param {string} name */
const originalDownload = (serial, name) =>
  h(
    'a',
    { href: documentUrl(serial, name), download: '', class: 'document-download' },
    t('documents.download'),
  );

/** The preview the service drew (never the partner's bytes), or, without one, a note. @param {string} serial @param {string} name @param {boolean} drawn */
function keptPreview(serial, name, drawn) {
  if (!drawn) return h('span', { class: 'image-placeholder small' }, t('documents.noPreview'));
  const url = `${documentUrl(serial, name)}/preview`;
  const img = h('img', { src: url, alt: fieldLabel(name), loading: 'lazy' });
  img.addEventListener('error', () =>
    img.replaceWith(h('span', { class: 'image-missing' }, t('fields.imageFailed'))),
  );
  return h('a', { href: url, target: '_blank', rel: 'noopener noreferrer', class: 'image-link' }, img);
}

/** @param {DocumentOutcome | undefined} d */
function stateNote(d) {
  if (d === undefined || d.state === 'pending')
    return h('span', { class: 'document-state', 'data-state': 'pending' }, t('documents.pending'));
  if (d.state === 'failed')
    return h(
      'span',
      { class: 'document-state', 'data-state': 'failed', 'data-reason': d.reason ?? '' },
      t('documents.failed', { reason: t(`documents.reason.${d.reason ?? 'unreachable'}`) }),
    );
  return null;
}

/**
 * @param {FieldsInput} input
 * @param {string} serial
 * @param {Record<string, DocumentOutcome> | undefined} documents
 */
export function documentGallery(input, serial, documents = {}) {
  return h(
    'div',
    { class: 'images' },
    IMAGES.filter((name) => input.application[name] !== undefined).map((name) => {
      const d = documents[name];
      const opened = input.revealed.has(name);
      // The copy the service holds: this document's, or the one before an amend's newer one.
      const copy = d?.state === 'kept' ? d : d?.previous;
      /** @type {Node} */
      let preview;
      if (copy !== undefined && opened) preview = keptPreview(serial, name, d?.preview === true);
      else if (copy !== undefined)
        preview = h(
          'span',
          { class: 'image-placeholder' },
          h('span', { class: 'lock', 'aria-hidden': 'true' }),
          h('span', { class: 'small' }, t(input.canReveal ? 'fields.imageHidden' : 'fields.masked')),
        );
      else preview = h('span', { class: 'image-placeholder' }, stateNote(d));
      const previous = d?.state !== 'kept' && copy !== undefined;
      return h(
        'figure',
        {
          class: 'image-card',
          'data-image': name,
          'data-document': d?.state ?? 'pending',
          ...(previous ? { 'data-copy': 'previous' } : {}),
        },
        h('div', { class: 'image-frame' }, preview),
        h(
          'figcaption',
          {},
          h('span', {}, fieldLabel(name)),
          previous ? h('span', { class: 'small document-previous' }, t('documents.previous')) : null,
          previous ? stateNote(d) : null,
          copy !== undefined ? facts(copy, opened ? originalDownload(serial, name) : null) : null,
          revealControl(input, name),
        ),
      );
    }),
  );
}
