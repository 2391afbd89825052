import { writeFileSync } from 'node:fs';
import { codesMarkdown, errorsMarkdown } from './referenceDocs.ts';

writeFileSync(new URL('../docs/CODES.md', import.meta.url), codesMarkdown());
writeFileSync(new URL('../docs/ERRORS.md', import.meta.url), errorsMarkdown());
console.log('docs/CODES.md and docs/ERRORS.md written');
