import { defaultCodeTables, TABLE_NAMES } from '../src/codes/tables.ts';
import { ENVIRONMENT } from '../src/environment.ts';
import { ERRORS, type ErrorName } from '../src/errors/catalogue.ts';
import { GUIDANCE } from '../src/errors/guidance.ts';
import { AMENDED_EVENT, EVENT_TYPES, eventTypeFor, STATUSES } from '../src/record/lifecycle.ts';

/** What docs/DEPLOYMENT.md's configuration table shows of a variable. */
interface VariableDoc {
  name: string;
  default: string;
  description: string;
}

function environmentDocs(): VariableDoc[] {
  return Object.entries(ENVIRONMENT.properties).map(([name, schema]) => {
    const s = schema as { default?: unknown; defaultText?: string; description?: string };
    return {
      name,
      default: s.defaultText ?? `\`${String(s.default)}\``,
      description: s.description ?? '',
    };
  });
}

/**
 * Reference pages generated from the code, so they cannot drift from it: the default code tables
 * and the error catalogue. `npm run docs` writes them; a test fails when the committed copies differ.
 */
export function codesMarkdown(): string {
  const tables = defaultCodeTables().tables;
  const lines = [
    '# Default code tables',
    '',
    'Generated from `src/codes/defaultTables.ts` by `npm run docs`. `CODES_FILE` replaces any of them;',
    'the codes endpoint (`POST /mc-platformapi/v1/open/et/vs/card/codes`) serves the tables in force.',
    'A code marked "other" asks for the matching free-text field: `profession_other` is then required;',
    '`purpose_other` and `wealth_source_other` are optional (without them, reviewers see a risk flag).',
  ];
  for (const name of TABLE_NAMES) {
    lines.push('', `## ${name}`, '', '| code | name | 名称 | other |', '|---|---|---|---|');
    for (const entry of tables[name]) {
      lines.push(`| \`${entry.code}\` | ${entry.name} | ${entry.name_zh} | ${entry.other ? 'yes' : ''} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function errorsMarkdown(): string {
  const lines = [
    '# Error catalogue',
    '',
    'Generated from `src/errors/catalogue.ts` by `npm run docs`. Every response is `{code, data, msg}`;',
    '`code` is the HTTP status × 100 + a detail, so `42201` comes with HTTP 422. Field errors list',
    'every problem in `data.errors: [{field, code, message}]`; `msg` is that of the first. Messages are',
    'English, or Chinese with `Accept-Language: zh`. Each code has its own cause and remedy.',
    '',
    '| code | HTTP | name | message | cause | what to do |',
    '|---|---|---|---|---|---|',
  ];
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  for (const [name, entry] of Object.entries(ERRORS).sort((a, b) => a[1].code - b[1].code)) {
    const guidance = GUIDANCE[name as ErrorName];
    lines.push(
      `| \`${entry.code}\` | ${entry.status} | \`${entry.name}\` | ${cell(entry.en)} | ${cell(guidance.cause)} | ${cell(guidance.remedy)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export const CONFIGURATION_START = '<!-- configuration:start -->';
export const CONFIGURATION_END = '<!-- configuration:end -->';

/** The configuration table of docs/DEPLOYMENT.md (between its markers), from src/environment.ts. */
export function configurationMarkdown(): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  const lines = ['| Variable | Default | Meaning |', '|---|---|---|'];
  for (const variable of environmentDocs()) {
    lines.push(`| \`${variable.name}\` | ${escape(variable.default)} | ${escape(variable.description)} |`);
  }
  return lines.join('\n');
}

/** The rows of a Markdown table as trimmed cells, whatever its padding (prettier aligns them). */
export function tableCells(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s:|-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

export const EVENTS_START = '<!-- events:start -->';
export const EVENTS_END = '<!-- events:end -->';

/** What each event type says, in the words of the lifecycle (docs/CONTRACT.md). */
function eventMeaning(type: string): string {
  if (type === AMENDED_EVENT) return "the partner's amend: back to `IN_REVIEW`, naming the fields sent again";
  if (type === 'application.documents_kept') return 'every image of the application is fetched and kept';
  if (type === 'application.document_failed') return 'an image could not be fetched or kept (its reason)';
  if (type === 'subject_request.completed')
    return "an applicant's request (access, portability, correction, deletion) was answered (PRIVACY.md)";
  if (type === 'subject_request.restricted')
    return 'a deletion is kept under anti-money-laundering record keeping until `restricted_until`, then erased';
  if (type === 'subject_request.refused')
    return "an applicant's request was refused (`reason_code`, `reason`)";
  const status = STATUSES.find((s) => eventTypeFor(s) === type);
  if (status === undefined) throw new Error(`${type}: an event type with no meaning written down`);
  return status === 'SUBMITTED' ? 'the submission, acknowledged' : `the application moved to \`${status}\``;
}

/** The list of every event type (README.md and docs/CONTRACT.md, between their markers). */
export function eventsMarkdown(): string {
  const lines = [`| Event (${EVENT_TYPES.length}) | When |`, '|---|---|'];
  for (const type of EVENT_TYPES) lines.push(`| \`${type}\` | ${eventMeaning(type)} |`);
  return lines.join('\n');
}

/** `text` with the part between its event markers replaced by the list. */
export function withEvents(text: string, file: string): string {
  const start = text.indexOf(EVENTS_START);
  const end = text.indexOf(EVENTS_END);
  if (start < 0 || end < start) throw new Error(`${file}: event markers not found`);
  return `${text.slice(0, start + EVENTS_START.length)}\n\n${eventsMarkdown()}\n\n${text.slice(end)}`;
}

export const WEBHOOK_FIELDS_START = '<!-- webhook-fields:start -->';
export const WEBHOOK_FIELDS_END = '<!-- webhook-fields:end -->';

interface BodySchema {
  properties?: Record<string, { type?: string; description?: string }>;
  required?: string[];
}

/** The request fields of the partner's webhook calls (docs/CONTRACT.md), from `openapi.json`. */
export function webhookFieldsMarkdown(document: {
  paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: BodySchema }> } } }>;
}): string {
  const lines = ['| Call | Fields beyond `app_id` and `timestamp` |', '|---|---|'];
  for (const [path, item] of Object.entries(document.paths)) {
    const name = /\/webhooks\/([a-z-]+)$/.exec(path)?.[1];
    const schema = item.post?.requestBody?.content['application/json']?.schema;
    if (name === undefined || schema === undefined) continue;
    const fields = Object.keys(schema.properties ?? {})
      .filter((field) => field !== 'app_id' && field !== 'timestamp')
      .map((field) => `\`${field}\`${(schema.required ?? []).includes(field) ? '' : ' (optional)'}`);
    lines.push(`| \`${name}\` | ${fields.join(', ') || 'none'} |`);
  }
  return lines.join('\n');
}

/** `text` with the part between its webhook-field markers replaced by the table. */
export function withWebhookFields(text: string, table: string): string {
  const start = text.indexOf(WEBHOOK_FIELDS_START);
  const end = text.indexOf(WEBHOOK_FIELDS_END);
  if (start < 0 || end < start) throw new Error('docs/CONTRACT.md: webhook-field markers not found');
  return `${text.slice(0, start + WEBHOOK_FIELDS_START.length)}\n\n${table}\n\n${text.slice(end)}`;
}
