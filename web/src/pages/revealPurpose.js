import { formDialog } from '../dialog.js';
import { t } from '../i18n.js';

/**
 * The purpose of a reveal (PCI DSS 3.3: identity data in the clear only with a stated need). The
 * first reveal on an application page asks for it, in a dialog that runs the reveal itself (so
 * that a refusal shows there); the later reveals of the same visit give the same purpose. Each is
 * audited with it.
 * @param {string[]} purposes the codes, from meta.json
 * @param {string} fieldName the label of the field to reveal
 * @param {(purpose: { purpose: string, purpose_text?: string }) => Promise<void>} reveal
 * @returns {Promise<{ purpose: string, purpose_text?: string } | null>} the purpose given, or null when cancelled
 */
export async function askPurpose(purposes, fieldName, reveal) {
  /** @type {{ purpose: string, purpose_text?: string } | null} */
  let given = null;
  const done = await formDialog({
    title: t('reveal.title', { field: fieldName }),
    description: t('reveal.description'),
    fields: [
      {
        name: 'purpose',
        label: t('reveal.purpose'),
        type: 'select',
        required: true,
        options: [
          ['', t('reveal.choose')],
          ...purposes.map((p) => /** @type {[string, string]} */ ([p, t(`purpose.${p}`)])),
        ],
      },
      { name: 'purpose_text', label: t('reveal.purposeText'), hint: t('reveal.purposeHint'), maxlength: 200 },
    ],
    submitLabel: t('reveal.submit'),
    onSubmit: async (values) => {
      // Said here, before a request: the service refuses it too (purpose_text is required then).
      if (values['purpose'] === 'other' && (values['purpose_text'] ?? '').trim() === '')
        throw new Error(t('reveal.textRequired'));
      const purpose = {
        purpose: values['purpose'] ?? '',
        ...(values['purpose_text'] ? { purpose_text: values['purpose_text'] } : {}),
      };
      await reveal(purpose);
      given = purpose;
    },
  });
  return done ? given : null;
}
