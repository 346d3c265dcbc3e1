/** The escaping element builder (xml.ts): every text node and attribute value is escaped. */
import { describe, expect, it } from 'vitest';
import { el, escapeAttr, escapeText, renderHtmlDocument, renderXml } from '../../src/widgets/xml.js';
import { byName, parseXml } from './widgets.parse.js';

describe('escaping', () => {
  it.each([
    ['plain', 'plain', 'plain'],
    ['a & b', 'a &amp; b', 'a &amp; b'],
    ['<script>', '&lt;script&gt;', '&lt;script&gt;'],
    ['"quoted" \'single\'', '"quoted" \'single\'', '&quot;quoted&quot; &#39;single&#39;'],
    ['&amp; already', '&amp;amp; already', '&amp;amp; already'],
    ['bell\u0007 nul\u0000 tab\t', 'bell nul tab\t', 'bell nul tab\t'],
    ['lone \uD800 surrogate', 'lone  surrogate', 'lone  surrogate'],
    ['emoji 🏦 kept', 'emoji 🏦 kept', 'emoji 🏦 kept'],
    // One special character alone: each must be noticed by the check that skips plain values.
    ['a > b', 'a &gt; b', 'a &gt; b'],
    ["it's", "it's", 'it&#39;s'],
    ['say "hi"', 'say "hi"', 'say &quot;hi&quot;'],
    ['low \uDC00 only', 'low  only', 'low  only'],
    ['\uFFFE\uFFFF', '', ''],
    ['M1.5,2C3,4,5,6,7,8', 'M1.5,2C3,4,5,6,7,8', 'M1.5,2C3,4,5,6,7,8'],
  ])('%j → text %j, attribute %j', (input, text, attr) => {
    expect(escapeText(input)).toBe(text);
    expect(escapeAttr(input)).toBe(attr);
  });
});

describe('el / renderXml', () => {
  it('escapes text children and attribute values, and parses back to the same strings', () => {
    const hostile = `<script>alert(1)</script> & "Co" 'x'`;
    const xml = renderXml(
      el('svg', { 'aria-label': hostile }, el('title', {}, hostile), el('text', {}, hostile)),
    );
    const doc = parseXml(xml);
    expect(byName(doc, 'script')).toEqual([]);
    expect(doc.children[0]?.attrs['aria-label']).toBe(hostile);
    expect(byName(doc, 'title')[0]?.text).toBe(hostile);
    expect(byName(doc, 'text')[0]?.text).toBe(hostile);
  });

  it.each([
    [el('g', {}), '<g/>'],
    [el('rect', { x: 1.5, y: 0, hidden: false, id: null, class: undefined }), '<rect x="1.5" y="0"/>'],
    [el('text', {}, 'a', 1, null, false, undefined, el('tspan', {}, 'b')), '<text>a1<tspan>b</tspan></text>'],
  ])('renders %j as %s', (node, expected) => {
    expect(renderXml(node)).toBe(expected);
  });

  it('uses HTML syntax for void and empty elements in html mode', () => {
    expect(renderXml(el('meta', { charset: 'utf-8' }), 'html')).toBe('<meta charset="utf-8">');
    expect(renderXml(el('textarea', { readonly: true }), 'html')).toBe('<textarea readonly></textarea>');
    expect(renderHtmlDocument(el('html', { lang: 'en' }))).toBe('<!DOCTYPE html>\n<html lang="en"></html>\n');
  });

  it.each([
    ['an element name with markup', () => el('svg onload=alert(1)')],
    ['an attribute name with markup', () => el('svg', { 'x" onload="alert(1)': 'y' })],
    ['a NaN attribute', () => renderXml(el('rect', { x: Number.NaN }))],
    ['an infinite text node', () => renderXml(el('text', {}, Number.POSITIVE_INFINITY))],
    ['a child in a void element', () => renderXml(el('meta', {}, 'x'), 'html')],
    ['markup characters in HTML <style>', () => renderXml(el('style', {}, 'a>b{}'), 'html')],
  ])('refuses %s', (_case, build) => {
    expect(build).toThrow();
  });
});
