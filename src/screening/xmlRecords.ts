/**
 * Streams the records of a large XML file (a 20 MB sanctions list) with bounded memory: the SAX
 * parser builds a small tree for one record element at a time and hands it over when it closes,
 * so only the records of one chunk are ever held. No DTD or entity is expanded (saxes has no
 * external entities), so a hostile file cannot read files or blow up.
 */
export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: XmlNode[];
}

/** One record larger than this (characters of text) is not a list entry: the file is refused. */
const MAX_RECORD_TEXT = 1_000_000;

/** A list file that is not what it says it is: refused whole (importList.ts). */
export class ListFormatError extends Error {}

export class XmlFormatError extends ListFormatError {}

export async function* xmlRecords(
  source: AsyncIterable<string | Uint8Array>,
  recordNames: readonly string[],
  onRoot?: (root: XmlNode) => void,
): AsyncGenerator<XmlNode> {
  // Loaded on a list's first import, not with the service (docs/PERFORMANCE.md, "Loaded when used").
  const { SaxesParser } = await import('saxes');
  const parser = new SaxesParser({ position: true });
  const done: XmlNode[] = [];
  const stack: XmlNode[] = [];
  let size = 0;
  let rootSeen = false;
  let failure: Error | undefined;
  parser.on('opentag', (tag) => {
    const node: XmlNode = {
      name: tag.name,
      attributes: { ...(tag.attributes as Record<string, string>) },
      text: '',
      children: [],
    };
    if (!rootSeen) {
      rootSeen = true;
      onRoot?.(node);
      return;
    }
    if (stack.length > 0) stack[stack.length - 1]!.children.push(node);
    else if (!recordNames.includes(tag.name)) return;
    else size = 0;
    stack.push(node);
  });
  parser.on('text', (text) => {
    const top = stack[stack.length - 1];
    if (top === undefined) return;
    size += text.length;
    if (size > MAX_RECORD_TEXT)
      throw new XmlFormatError(`a <${stack[0]!.name}> record is larger than ${MAX_RECORD_TEXT} characters`);
    top.text += text;
  });
  parser.on('cdata', (text) => {
    const top = stack[stack.length - 1];
    if (top !== undefined) top.text += text;
  });
  parser.on('closetag', () => {
    const node = stack.pop();
    if (node !== undefined && stack.length === 0) done.push(node);
  });
  parser.on('error', (error) => {
    failure ??= new XmlFormatError(`not well-formed XML: ${error.message.split('\n')[0]}`);
  });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of source) {
    parser.write(typeof chunk === 'string' ? chunk : decodeChunk(decoder, chunk));
    if (failure !== undefined) throw failure;
    yield* done.splice(0);
  }
  parser.close();
  if (failure !== undefined) throw failure;
  yield* done.splice(0);
  if (!rootSeen) throw new XmlFormatError('the file has no XML element');
}

function decodeChunk(
  decoder: { decode(input: Uint8Array, options: { stream: boolean }): string },
  chunk: Uint8Array,
): string {
  try {
    return decoder.decode(chunk, { stream: true });
  } catch {
    throw new XmlFormatError('the file is not UTF-8');
  }
}

export function child(node: XmlNode, name: string): XmlNode | undefined {
  return node.children.find((c) => c.name === name);
}

export function childrenNamed(node: XmlNode, name: string): XmlNode[] {
  return node.children.filter((c) => c.name === name);
}

/** The trimmed text of a child element, or '' when it is missing or empty. */
export function textOf(node: XmlNode | undefined, name: string): string {
  if (node === undefined) return '';
  return (child(node, name)?.text ?? '').replace(/\s+/g, ' ').trim();
}
