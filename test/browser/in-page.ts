// @ts-nocheck: these functions run inside Chromium (passed to page.evaluate), where the DOM exists;
// the project compiles for Node without the DOM lib, so only their signatures are checked.

export interface TextBox {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface WidgetMeasure {
  scrollWidth: number;
  scrollHeight: number;
  clientWidth: number;
  clientHeight: number;
  width: number;
  height: number;
  scripts: number;
  lineLength: number;
  lineStroke: string;
  lineBox: { width: number; height: number; top: number; bottom: number } | null;
  texts: TextBox[];
}

/** Measures a widget document (a frame, or the .svg opened directly) from the inside. */
export function measureWidget(): WidgetMeasure {
  const root = document.documentElement;
  const line = document.querySelector('path.spark-line');
  const lineBox = line?.getBoundingClientRect();
  const texts = [...document.querySelectorAll('text')].map((t) => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent ?? '', left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });
  return {
    scrollWidth: root.scrollWidth,
    scrollHeight: root.scrollHeight,
    clientWidth: root.clientWidth,
    clientHeight: root.clientHeight,
    width: window.innerWidth,
    height: window.innerHeight,
    scripts: document.querySelectorAll('script').length,
    lineLength: line ? line.getTotalLength() : 0,
    lineStroke: line ? getComputedStyle(line).stroke : 'none',
    lineBox: lineBox
      ? { width: lineBox.width, height: lineBox.height, top: lineBox.top, bottom: lineBox.bottom }
      : null,
    texts,
  };
}

export function textOf(selector: string): string | null {
  return document.querySelector(selector)?.textContent ?? null;
}

export function countOf(selector: string): number {
  return document.querySelectorAll(selector).length;
}

export function rootElementName(): string {
  return document.documentElement.localName;
}

/** [naturalWidth, complete] of an <img>. */
export function imageState(selector: string): [number, boolean] {
  const img = document.querySelector(selector);
  return [img.naturalWidth, img.complete];
}

export function fieldValue(selector: string): string {
  return document.querySelector(selector).value;
}

/** `#rrggbb` at each point of a PNG, decoded by the browser's own image decoder. */
export async function decodePixels(input: { base64: string; points: [number, number][] }): Promise<string[]> {
  const bytes = Uint8Array.from(atob(input.base64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  return input.points.map(([x, y]) => {
    const [r, g, b] = context.getImageData(x, y, 1, 1).data;
    return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  });
}
