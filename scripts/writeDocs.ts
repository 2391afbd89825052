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

// The README's configuration table, between its markers, formatted as prettier would.
const readmeUrl = new URL('../README.md', import.meta.url);
const readme = readFileSync(readmeUrl, 'utf8');
const start = readme.indexOf(CONFIGURATION_START);
const end = readme.indexOf(CONFIGURATION_END);
if (start < 0 || end < start) throw new Error('README.md: configuration markers not found');
const updated =
  readme.slice(0, start + CONFIGURATION_START.length) +
  '\n\n' +
  configurationMarkdown() +
  '\n\n' +
  readme.slice(end);
const options = await prettier.resolveConfig(readmeUrl);
writeFileSync(readmeUrl, await prettier.format(updated, { ...options, filepath: readmeUrl.pathname }));
console.log('docs/CODES.md, docs/ERRORS.md and the configuration table of README.md written');
