/**
 * SEC's ADV files and IAPD feed are Latin-1 / Windows-1252, while copies re-saved by other tools are
 * UTF-8. Valid UTF-8 is read as UTF-8; anything else as Windows-1252 (a superset of Latin-1's
 * printable range), so `É` and curly quotes survive either way.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });
const windows1252 = new TextDecoder('windows-1252');

export function decodeSecText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return windows1252.decode(bytes);
  }
}

/** Streamed Latin-1 decoding for large feeds whose declared encoding is ISO-8859-1. */
export async function* decodeLatin1(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder('windows-1252');
  for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true });
  const tail = decoder.decode();
  if (tail !== '') yield tail;
}

/** Splits a large string into chunks for the streaming parsers. */
export function* chunksOf(text: string, size = 1 << 20): Generator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}
