/**
 * A thin streaming layer over saxes: element names are reduced to their local part, so any
 * namespace prefix (default namespace, `ns1:`, `n1:`, `com:` …) reads the same, and each element's
 * path of local names is handed to the callbacks with its text or attributes.
 */
import { SaxesParser } from 'saxes';

export interface XmlVisitor {
  /** Called when an element opens; `path` ends with the element's own local name. */
  open?(path: readonly string[], attributes: Record<string, string>): void;
  /** Called when an element closes, with its own trimmed text (children's text excluded). */
  close?(path: readonly string[], text: string): void;
}

export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** Feeds chunks of XML text through the visitor; rejects on malformed XML. */
export async function walkXml(chunks: AsyncIterable<string> | Iterable<string>, visitor: XmlVisitor) {
  const parser = new SaxesParser({ position: false });
  const path: string[] = [];
  const texts: string[] = [];
  let failure: Error | null = null;
  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('opentag', (tag) => {
    path.push(localName(tag.name));
    texts.push('');
    if (visitor.open) {
      const attributes: Record<string, string> = {};
      for (const [name, value] of Object.entries(tag.attributes)) {
        attributes[localName(name)] = typeof value === 'string' ? value : value.value;
      }
      visitor.open(path, attributes);
    }
  });
  const addText = (text: string) => {
    if (texts.length > 0) texts[texts.length - 1] += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    visitor.close?.(path, (texts.pop() ?? '').trim());
    path.pop();
  });
  let started = false;
  for await (const raw of chunks) {
    // Some real files start with a blank line before the XML declaration; strict parsers reject it.
    const chunk = started ? raw : raw.replace(/^[\s\uFEFF]+/, '');
    if (chunk === '') continue;
    started = true;
    parser.write(chunk);
    if (failure) throw new Error(`malformed XML: ${(failure as Error).message}`);
  }
  parser.close();
  if (failure) throw new Error(`malformed XML: ${(failure as Error).message}`);
}
