/**
 * A data set ZIP damaged in one member, the way a cut or corrupted download is: the size its
 * central directory states changed, or bytes of its compressed data overwritten.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const CENTRAL_HEADER = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

/** Where the member's central directory header and its compressed data begin. */
function locate(zip: Buffer, member: string): { central: number; data: number; compressed: number } {
  for (let at = zip.indexOf(CENTRAL_HEADER); at >= 0; at = zip.indexOf(CENTRAL_HEADER, at + 4)) {
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('latin1');
    if (!name.endsWith(member)) continue;
    const local = zip.readUInt32LE(at + 42);
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    return { central: at, data, compressed: zip.readUInt32LE(at + 20) };
  }
  throw new Error(`no member ${member}`);
}

/** Writes `to`: the ZIP at `from` with `member`'s stated uncompressed size moved by `delta` bytes. */
export function withStatedSize(from: string, to: string, member: string, delta: number): number {
  const zip = readFileSync(from);
  const { central } = locate(zip, member);
  const size = zip.readUInt32LE(central + 24);
  zip.writeUInt32LE(size + delta, central + 24);
  writeFileSync(to, zip);
  return size;
}

/** Writes `to`: the ZIP at `from` with the middle third of `member`'s compressed bytes overwritten. */
export function withDamagedData(from: string, to: string, member: string): void {
  const zip = readFileSync(from);
  const { data, compressed } = locate(zip, member);
  zip.fill(0xa5, data + Math.floor(compressed / 3), data + Math.floor((2 * compressed) / 3));
  writeFileSync(to, zip);
}
