import { readFileSync, writeFileSync } from 'node:fs';
import prettier from 'prettier';
import {
  codesMarkdown,
  configurationMarkdown,
  CONFIGURATION_END,
  CONFIGURATION_START,
  errorsMarkdown,
  webhookFieldsMarkdown,
  withEvents,
  withWebhookFields,
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

// The list of event types in the README and docs/CONTRACT.md, between their markers, and the
// webhook calls' request fields in docs/CONTRACT.md, from the committed openapi.json.
const partnerDocument = JSON.parse(
  readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'),
) as Parameters<typeof webhookFieldsMarkdown>[0];
for (const file of ['../README.md', '../docs/CONTRACT.md']) {
  const url = new URL(file, import.meta.url);
  const events = withEvents(readFileSync(url, 'utf8'), file);
  const text = file.endsWith('CONTRACT.md')
    ? withWebhookFields(events, webhookFieldsMarkdown(partnerDocument))
    : events;
  const fileOptions = await prettier.resolveConfig(url);
  writeFileSync(url, await prettier.format(text, { ...fileOptions, filepath: url.pathname }));
}
console.log(
  'docs/CODES.md, docs/ERRORS.md, the configuration table of docs/DEPLOYMENT.md and the event lists of README.md and docs/CONTRACT.md written',
);
