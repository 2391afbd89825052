import { readFileSync, writeFileSync } from 'node:fs';
import prettier from 'prettier';
import {
  codesMarkdown,
  configurationMarkdown,
  CONFIGURATION_END,
  CONFIGURATION_START,
  errorsMarkdown,
} from './referenceDocs.ts';

writeFileSync(new URL('../docs/CODES.md', import.meta.url), codesMarkdown());
writeFileSync(new URL('../docs/ERRORS.md', import.meta.url), errorsMarkdown());

// The settings table of docs/DEPLOYMENT.md (the settings' one home), between its markers,
// formatted as prettier would.
const deploymentUrl = new URL('../docs/DEPLOYMENT.md', import.meta.url);
const deployment = readFileSync(deploymentUrl, 'utf8');
const start = deployment.indexOf(CONFIGURATION_START);
const end = deployment.indexOf(CONFIGURATION_END);
if (start < 0 || end < start) throw new Error('docs/DEPLOYMENT.md: configuration markers not found');
const updated =
  deployment.slice(0, start + CONFIGURATION_START.length) +
  '\n\n' +
  configurationMarkdown() +
  '\n\n' +
  deployment.slice(end);
const options = await prettier.resolveConfig(deploymentUrl);
writeFileSync(
  deploymentUrl,
  await prettier.format(updated, { ...options, filepath: deploymentUrl.pathname }),
);
console.log('docs/CODES.md, docs/ERRORS.md and the configuration table of docs/DEPLOYMENT.md written');
