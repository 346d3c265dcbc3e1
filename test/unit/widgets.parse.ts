/**
 * Test helper: parses widget SVG with a real XML parser (saxes) into a small element tree, so tests
 * assert on what a parser sees (elements, attributes, decoded text), never on raw substrings.
 */
import { SaxesParser } from 'saxes';

export interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  /** Decoded text of this element and its descendants. */
  text: string;
}

/** Parses an XML document; throws on anything that is not well-formed. */
export function parseXml(xml: string): Node {
  const parser = new SaxesParser({ xmlns: false });
  const root: Node = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: Node[] = [root];
  parser.on('opentag', (tag) => {
    const node: Node = {
      name: tag.name,
      attrs: { ...(tag.attributes as Record<string, string>) },
      children: [],
      text: '',
    };
    stack.at(-1)?.children.push(node);
    stack.push(node);
  });
  parser.on('text', (text) => {
    for (const node of stack) node.text += text;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
  return root;
}

export function findAll(node: Node, predicate: (n: Node) => boolean): Node[] {
  const found = predicate(node) ? [node] : [];
  return found.concat(...node.children.map((child) => findAll(child, predicate)));
}

export const byName = (root: Node, name: string) => findAll(root, (n) => n.name === name);
export const byClass = (root: Node, cls: string) =>
  findAll(root, (n) => (n.attrs.class ?? '').split(' ').includes(cls));

/** The one element with this class; throws when there is not exactly one. */
export function one(root: Node, cls: string): Node {
  const found = byClass(root, cls);
  if (found.length !== 1) throw new Error(`expected one .${cls}, found ${found.length}`);
  return found[0] as Node;
}

/** The inline `<svg>…</svg>` of an HTML widget page (it is well-formed XML by construction). */
export function inlineSvg(html: string): Node {
  const start = html.indexOf('<svg');
  const end = html.lastIndexOf('</svg>');
  if (start < 0 || end < 0) throw new Error('no inline svg');
  return parseXml(html.slice(start, end + '</svg>'.length));
}
