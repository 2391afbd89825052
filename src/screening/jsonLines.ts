import { ListFormatError } from './xmlRecords.ts';

/** One line longer than this (characters) is not an entity: the file is refused. */
export const MAX_LINE = 1_000_000;

/**
 * The JSON values of a JSON lines file (one value a line, blank lines skipped), streamed: only the
 * line being read is held. A line that is not JSON, longer than MAX_LINE, or text that is not
 * UTF-8 refuses the file, naming the line.
 */
export async function* jsonLines(
  source: AsyncIterable<string | Uint8Array>,
): AsyncGenerator<{ line: number; value: unknown }> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending = '';
  let line = 0;
  const parse = (text: string) => {
    line++;
    if (text.length > MAX_LINE)
      throw new ListFormatError(`line ${line} is longer than ${MAX_LINE} characters`);
    const trimmed = text.trim();
    if (trimmed === '') return undefined;
    if (line === 1 && trimmed.startsWith('<')) {
      throw new ListFormatError('the file is XML, not JSON lines (one FollowTheMoney entity a line)');
    }
    try {
      return { line, value: JSON.parse(trimmed) as unknown };
    } catch {
      throw new ListFormatError(`line ${line} is not JSON`);
    }
  };
  for await (const chunk of source) {
    let text: string;
    try {
      text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    } catch {
      throw new ListFormatError('the file is not UTF-8');
    }
    pending += text;
    let start = 0;
    for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n', start)) {
      const read = parse(pending.slice(start, newline));
      start = newline + 1;
      if (read !== undefined) yield read;
    }
    pending = pending.slice(start);
    if (pending.length > MAX_LINE) {
      throw new ListFormatError(`line ${line + 1} is longer than ${MAX_LINE} characters`);
    }
  }
  try {
    pending += decoder.decode();
  } catch {
    throw new ListFormatError('the file is not UTF-8');
  }
  const last = parse(pending);
  if (last !== undefined) yield last;
}
