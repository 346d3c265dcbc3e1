/**
 * Texts as UTF-8 bytes back to back, with each one's length (−1 for null): how the parsing worker
 * hands the issuer, class and discretion of each row to the loading thread. The loading thread
 * copies them into the stored records as bytes, and decodes only the names it keeps. Posting the
 * texts as strings cost a string per text in the worker, a JSON text of them each way, and a
 * character loop to store each (3.8 million rows a data set).
 */
import { doubled } from '../../../typed-arrays.js';
import type { LineFields } from './infotable-bytes.js';
import { textOrNull } from './values.js';

export class TextColumn {
  private bytes = new Uint8Array(1 << 16);
  private at = 0;
  private lengths = new Int32Array(1024);
  private count = 0;

  /** A text as given (already normalised), or null. */
  add(text: string | null): void {
    if (text === null) {
      this.addLength(-1);
      return;
    }
    const n = text.length;
    this.reserve(3 * n);
    // Nearly every text filed is ASCII: its bytes are its characters; anything else goes through
    // the UTF-8 encoder whole.
    let p = this.at;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) {
        p = this.at + Buffer.from(this.bytes.buffer).write(text, this.at, 'utf8');
        break;
      }
      this.bytes[p++] = c;
    }
    this.addLength(p - this.at);
    this.at = p;
  }

  /**
   * Field k of a line as textOrNull reads it. An ASCII field that trimming would not change is
   * copied as its bytes (they are its UTF-8); any other is decoded, trimmed and encoded again.
   */
  addField(fields: LineFields, k: number): void {
    const length = fields.length(k);
    if (length <= 0) {
      this.addLength(-1);
      return;
    }
    const { bytes } = fields;
    const start = fields.startOf(k);
    const end = start + length;
    // textOrNull trims whitespace, which is ≤ 0x20 in ASCII and never a character of 0x21–0x7F.
    const first = bytes[start] as number;
    const last = bytes[end - 1] as number;
    if (first > 0x20 && first < 0x80 && last > 0x20 && last < 0x80) {
      this.reserve(length);
      let p = this.at;
      for (let i = start; i < end; i++) {
        const b = bytes[i] as number;
        if (b >= 0x80) {
          this.add(textOrNull(fields.text(k)));
          return;
        }
        this.bytes[p++] = b;
      }
      this.addLength(length);
      this.at = p;
      return;
    }
    this.add(textOrNull(fields.text(k)));
  }

  /** The texts so far and their lengths, and a fresh start. */
  take(): { texts: Uint8Array; lengths: Int32Array } {
    const taken = { texts: this.bytes.slice(0, this.at), lengths: this.lengths.slice(0, this.count) };
    this.at = 0;
    this.count = 0;
    return taken;
  }

  private addLength(length: number): void {
    if (this.count === this.lengths.length) this.lengths = doubled(this.lengths);
    this.lengths[this.count++] = length;
  }

  private reserve(bytes: number): void {
    while (this.at + bytes > this.bytes.length) this.bytes = doubled(this.bytes);
  }
}
