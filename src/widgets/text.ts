/**
 * Text measurement without a browser: the card has no JavaScript, so long names are truncated on
 * the server from an estimate of rendered width. Advance widths are those of DejaVu Sans (the wide
 * fallback sans-serif on Linux), so narrower fonts (Arial, Helvetica, Segoe UI, Roboto) only leave
 * more room; the browser test checks the estimate against real Chromium.
 */

/** Advance widths in em for DejaVu Sans Book, by character class. */
function classWidthEm(char: string): number {
  if (/[ijlI.,:;'!|`]/.test(char)) return 0.32;
  if (char === ' ') return 0.32;
  if (/[frt()[\]{}"\-/\\]/.test(char)) return 0.44;
  if (/[mw]/.test(char)) return 0.98;
  if (/[MW%@]/.test(char)) return 1.0;
  if (/[A-Z&#]/.test(char)) return 0.78;
  if (/[a-z0-9$?*+=<>^_~]/.test(char)) return 0.66;
  if (char === '…' || char === '—') return 1.0;
  // Accented Latin and other scripts: assume a wide glyph.
  return (char.codePointAt(0) ?? 0) > 0x2e7f ? 1.05 : 0.8;
}

const widthCache = new Map<string, number>();

function charWidthEm(char: string): number {
  let width = widthCache.get(char);
  if (width === undefined) {
    width = classWidthEm(char);
    if (widthCache.size < 10_000) widthCache.set(char, width);
  }
  return width;
}

const BOLD_FACTOR = 1.1;
const ELLIPSIS_EM = 1.0;

function emOf(text: string): number {
  let em = 0;
  for (const char of text) em += charWidthEm(char);
  return em;
}

const pxPerEm = (fontSize: number, bold: boolean) => fontSize * (bold ? BOLD_FACTOR : 1);

export function estimateWidth(text: string, fontSize: number, bold = false): number {
  return emOf(text) * pxPerEm(fontSize, bold);
}

/** The longest prefix (whole code points) that fits `maxWidth` with an ellipsis; `text` if it fits. */
export function truncate(text: string, maxWidth: number, fontSize: number, bold = false): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (estimateWidth(clean, fontSize, bold) <= maxWidth) return clean;
  const budget = maxWidth / pxPerEm(fontSize, bold) - ELLIPSIS_EM;
  const chars = [...clean];
  let used = 0;
  let length = 0;
  while (length < chars.length && used + charWidthEm(chars[length] as string) <= budget) {
    used += charWidthEm(chars[length] as string);
    length++;
  }
  const prefix = chars.slice(0, length).join('').trimEnd();
  return prefix === '' ? '…' : `${prefix}…`;
}

/** The largest whole font size from `max` down to `min` at which `text` fits `maxWidth`. */
export function fitFontSize(text: string, maxWidth: number, max: number, min: number, bold = false): number {
  const fitting = Math.floor(maxWidth / (emOf(text) * pxPerEm(1, bold)));
  return Math.max(min, Math.min(max, fitting));
}

const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** A percent value as the card shows it: `1.15%`, `-0.42%`, `1,234.50%`, `1.2M%` for absurd ones. */
export function formatPercent(value: number): string {
  return `${Math.abs(value) >= 100_000 ? compact.format(value) : twoDecimals.format(value)}%`;
}

/** A change in percentage points without sign (the arrow carries it): `0.05 pp`. */
export function formatPoints(change: number): string {
  const magnitude = Math.abs(change);
  return `${magnitude >= 100_000 ? compact.format(magnitude) : twoDecimals.format(magnitude)} pp`;
}

/** Greedy word wrap into at most `maxLines` lines; the last line is truncated with an ellipsis. */
export function wrapText(text: string, maxWidth: number, fontSize: number, maxLines: number): string[] {
  const lines: string[] = [];
  let current = '';
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  for (const [index, word] of words.entries()) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (estimateWidth(candidate, fontSize) <= maxWidth || current === '') {
      current = candidate;
      continue;
    }
    if (lines.length === maxLines - 1) {
      return [...lines, truncate(`${current} ${words.slice(index).join(' ')}`, maxWidth, fontSize)];
    }
    lines.push(truncate(current, maxWidth, fontSize));
    current = word;
  }
  if (current !== '') lines.push(truncate(current, maxWidth, fontSize));
  return lines;
}
