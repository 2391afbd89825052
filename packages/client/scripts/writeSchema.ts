import { readFileSync, writeFileSync } from 'node:fs';
import { generateSchema, SCHEMA_FILE } from './generateSchema.ts';

// Regenerates packages/client/src/schema.ts from the committed openapi.json (`npm run openapi`
// writes that first); a test fails when the committed schema.ts is not what this writes.
const document = readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8');
writeFileSync(SCHEMA_FILE, await generateSchema(document));
console.log('packages/client/src/schema.ts written');
