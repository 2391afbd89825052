import { defaultCodeTables, TABLE_NAMES } from '../src/codes/tables.ts';
import { environmentDocs } from '../src/environment.ts';
import { ERRORS } from '../src/errors/catalogue.ts';

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
    'English, or Chinese with `Accept-Language: zh`.',
    '',
    '| code | HTTP | name | message | what to do |',
    '|---|---|---|---|---|',
  ];
  for (const entry of Object.values(ERRORS).sort((a, b) => a.code - b.code)) {
    lines.push(
      `| \`${entry.code}\` | ${entry.status} | \`${entry.name}\` | ${entry.en.replace(/\|/g, '\\|')} | ${ADVICE[entry.name] ?? advice(entry.status)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Where one code needs other advice than its status gives (by catalogue name). */
const ADVICE: Record<string, string> = {
  token_expired:
    'Exchange the secret for a new token, then retry (the client renews before expiry, and once on this).',
  credentials_invalid:
    'Check `app_id` and `app_secret`; do not retry in a loop: failed secrets are counted, then refused with 429.',
  timestamp_skew: 'Set the clock by NTP and send Unix seconds (not milliseconds), then retry.',
  duplicate_application:
    'The applicant has an active application; if it is yours, `data.busi_water_no` names it: query it instead.',
  idempotency_key_reused:
    'A key is for retrying one request: send a different body with a new `Idempotency-Key`.',
  idempotency_in_progress:
    'The first request with this key is still running: wait `Retry-After` seconds and retry with the same key.',
  transition_not_allowed: 'Query the application: its state no longer allows this move.',
  pay_pwd_weak: 'Ask the applicant for another payment password; send its MD5 digest.',
  request_timeout: 'Send the whole request without pauses (headers within `HEADERS_TIMEOUT_MS`), then retry.',
  headers_too_large: 'Send fewer or shorter headers (16 KiB in all at most), then retry.',
};

function advice(status: number): string {
  switch (status) {
    case 400:
    case 413:
    case 415:
      return 'Fix the request body or headers; do not retry unchanged.';
    case 401:
      return 'Get a new token (or fix the secret or the clock), then retry.';
    case 403:
      return 'Use the token of the app named in the body; ask the issuer if the app is disabled.';
    case 404:
      return 'Check the serial number: it is unknown to this app.';
    case 409:
      return 'Read the current state (or the serial in `data`); do not retry unchanged.';
    case 422:
      return 'Correct the field named in the message; `data.errors` lists every problem.';
    case 429:
      return 'Wait `Retry-After` seconds, then retry.';
    default:
      return 'Retry later with the same `Idempotency-Key`; report persistent 500s with the `x-request-id`.';
  }
}

export const CONFIGURATION_START = '<!-- configuration:start -->';
export const CONFIGURATION_END = '<!-- configuration:end -->';

/** The README's configuration table (between its markers), from src/environment.ts. */
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
