import { writeFileSync } from 'node:fs';
import { openapiDocuments } from './openapiDocument.ts';

// Writes openapi.json (the partner API) and openapi.admin.json (the admin API) from the route
// schemas; `npm test` fails when a committed file differs from what the service serves.
const { partner, admin } = await openapiDocuments();
writeFileSync(new URL('../openapi.json', import.meta.url), partner);
writeFileSync(new URL('../openapi.admin.json', import.meta.url), admin);
console.log('openapi.json and openapi.admin.json written');
