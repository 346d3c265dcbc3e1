/**
 * The one way markup is produced for widgets: an element tree whose serialiser escapes every text
 * node and attribute value. Data never meets a string template, so a name like
 * `<script>alert(1)</script> & "Co"` can only ever become text. (After shields' badge-maker xml.js.)
 */

export type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Readonly<Record<string, AttrValue>>;
export type XmlChild = XmlElement | string | number | null | undefined | false;

export interface XmlElement {
  readonly name: string;
  readonly attrs: Attrs;
  readonly children: readonly XmlChild[];
}

/** `xml` for standalone SVG documents; `html` for HTML5 pages (void elements, no `<x/>`). */
export type Syntax = 'xml' | 'html';

const NAME = /^[A-Za-z][A-Za-z0-9:._-]*$/;
const HTML_VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
]);
// Characters XML 1.0 forbids (C0 controls except tab/CR/LF, lone surrogates, U+FFFE/U+FFFF).
const INVALID_XML_CHARS = new RegExp(
  [
    '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]',
    '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])',
    '(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]',
  ].join('|'),
  'g',
);

// Whether a text or an attribute value needs any of the work below: most (path data, numbers,
// colours) need none, and one test is cheaper than the four or six replacements (~8 % of a widget).
const INVALID_XML_CHAR = new RegExp(INVALID_XML_CHARS.source);
const TEXT_SPECIAL = /[&<>]/;
const ATTR_SPECIAL = /[&<>"']/;

// HTML does not decode entities inside these, so their text must not need escaping at all.
const RAW_TEXT = new Set(['style', 'script']);

function assertRawTextSafe(node: XmlElement): void {
  for (const child of node.children) {
    if (typeof child === 'object' && child !== null) throw new Error(`${node.name} holds only text`);
    if (typeof child === 'string' && /[<>&]/.test(child)) {
      throw new Error(`${node.name} text must not contain <, > or & in HTML`);
    }
  }
}

export function el(name: string, attrs: Attrs = {}, ...children: XmlChild[]): XmlElement {
  if (!NAME.test(name)) throw new Error(`invalid element name ${JSON.stringify(name)}`);
  for (const key of Object.keys(attrs)) {
    if (!NAME.test(key)) throw new Error(`invalid attribute name ${JSON.stringify(key)}`);
  }
  return { name, attrs, children };
}

/** Drops characters no XML parser accepts, so a stray control byte in a name cannot break the SVG. */
export function cleanText(value: string): string {
  return value.replace(INVALID_XML_CHARS, '');
}

export function escapeText(value: string): string {
  if (!TEXT_SPECIAL.test(value) && !INVALID_XML_CHAR.test(value)) return value;
  return cleanText(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(value: string): string {
  if (!ATTR_SPECIAL.test(value) && !INVALID_XML_CHAR.test(value)) return value;
  return escapeText(value).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function formatValue(name: string, value: string | number): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`attribute ${name} is not a finite number`);
    return String(value);
  }
  return value;
}

function renderAttrs(attrs: Attrs, syntax: Syntax): string {
  let out = '';
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (value === true) {
      out += syntax === 'html' ? ` ${name}` : ` ${name}="${name}"`;
      continue;
    }
    out += ` ${name}="${escapeAttr(formatValue(name, value))}"`;
  }
  return out;
}

function renderChild(child: XmlChild, syntax: Syntax): string {
  if (child === null || child === undefined || child === false) return '';
  if (typeof child === 'number') return escapeText(formatValue('text', child));
  if (typeof child === 'string') return escapeText(child);
  return renderXml(child, syntax);
}

/** Serialises an element tree; every string in it is escaped on the way out. */
export function renderXml(node: XmlElement, syntax: Syntax = 'xml'): string {
  const open = `<${node.name}${renderAttrs(node.attrs, syntax)}`;
  if (syntax === 'html' && HTML_VOID.has(node.name)) {
    if (node.children.length > 0) throw new Error(`void element ${node.name} cannot have children`);
    return `${open}>`;
  }
  if (syntax === 'html' && RAW_TEXT.has(node.name)) assertRawTextSafe(node);
  const inner = node.children.map((child) => renderChild(child, syntax)).join('');
  if (inner === '' && syntax === 'xml') return `${open}/>`;
  return `${open}>${inner}</${node.name}>`;
}

/** An HTML5 document: the doctype plus the serialised `<html>` element. */
export function renderHtmlDocument(html: XmlElement): string {
  return `<!DOCTYPE html>\n${renderXml(html, 'html')}\n`;
}
