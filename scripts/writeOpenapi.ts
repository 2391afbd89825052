import { writeFileSync } from 'node:fs';
import { openapiDocument } from './openapiDocument.ts';

// Writes openapi.json from the route schemas; `npm test` fails when the committed file differs.
writeFileSync(new URL('../openapi.json', import.meta.url), await openapiDocument());
console.log('openapi.json written');
