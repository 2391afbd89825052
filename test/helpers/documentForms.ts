import fc from 'fast-check';

/**
 * The ways partners' forms and input methods write one document number: any mix of upper and lower
 * case, spaces anywhere, the check character (from `checkAt` on) bare or in ASCII or full-width
 * brackets, and the whole in full-width forms. Every one reads as `canonical`. At most `maxLength`
 * characters (the schema's limit for `cert_id`).
 */
export function writtenForms(canonical: string, checkAt: number, maxLength = 32): fc.Arbitrary<string> {
  const fullWidth = (text: string) =>
    [...text]
      .map((c) => {
        if (c === ' ') return '\u3000';
        const code = c.charCodeAt(0);
        return code > 0x20 && code < 0x7f ? String.fromCharCode(code + 0xfee0) : c;
      })
      .join('');
  return fc
    .record({
      lower: fc.array(fc.boolean(), { minLength: canonical.length, maxLength: canonical.length }),
      spaces: fc.array(fc.constantFrom('', '', ' ', '  '), {
        minLength: canonical.length + 1,
        maxLength: canonical.length + 1,
      }),
      bracket: fc.constantFrom('none', 'ascii', 'full'),
      wide: fc.boolean(),
    })
    .map(({ lower, spaces, bracket, wide }) => {
      const chars = [...canonical].map((c, i) => (lower[i] ? c.toLowerCase() : c));
      const body = chars.slice(0, checkAt).map((c, i) => spaces[i] + c);
      const check = chars.slice(checkAt).join('');
      const closing =
        bracket === 'ascii' ? `${spaces[checkAt]}(${check})` : bracket === 'full' ? `（${check}）` : check;
      const text = `${body.join('')}${closing}${spaces[canonical.length]}`;
      return wide ? fullWidth(text) : text;
    })
    .filter((text) => text.length <= maxLength);
}
