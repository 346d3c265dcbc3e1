/**
 * ZIP members as every ingest reads them (src/ingest/core/zip-entry.ts), on real ZIP files opened
 * from a path, the way yauzl reads one piece at a time: a member whose deflate data ends before the
 * bytes the ZIP gives it, then the next member let go part-way, many times over, without an uncaught
 * error; a member compressed by a method other than deflate refused before it is read; a damaged
 * one refused with its name.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { openZipEntry, readZipEntry } from '../../src/ingest/core/zip-entry.js';

const dir = mkdtempSync(join(tmpdir(), 'regdata-zip-entry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TEXT = Buffer.from('a line of text\n'.repeat(1000));
const BIG = Buffer.from(Array.from({ length: 200_000 }, (_, i) => `${i}\t${(i * 7919) % 10_007}`).join('\n'));

/**
 * A ZIP of TRAILING.txt (TEXT deflated, followed by 2 MB that are not part of the deflate data but
 * counted in the member's compressed size) and BIG.txt (deflated).
 */
async function writeZip(path: string): Promise<void> {
  const zip = new yazl.ZipFile();
  // Stored as given, then relabelled as deflated below.
  zip.addBuffer(Buffer.concat([deflateRawSync(TEXT), Buffer.alloc(2_000_000, 7)]), 'TRAILING.txt', {
    compress: false,
  });
  zip.addBuffer(BIG, 'BIG.txt', { compress: true });
  zip.end();
  const parts: Buffer[] = [];
  for await (const part of zip.outputStream) parts.push(part as Buffer);
  const bytes = Buffer.concat(parts);
  const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  bytes.writeUInt16LE(8, central + 10); // compression method: deflate
  bytes.writeUInt32LE(TEXT.length, central + 24); // uncompressed size
  writeFileSync(path, bytes);
}

async function openZip(path: string) {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  );
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.once('end', resolve);
    zip.once('error', reject);
    zip.readEntry();
  });
  return { zip, entry: (name: string) => entries.get(name) as yauzl.Entry };
}

describe('ZIP members read by the ingests', () => {
  it('a member whose deflate data ends early, then the next one let go part-way: no uncaught error', async () => {
    const path = join(dir, 'trailing.zip');
    await writeZip(path);
    const uncaught: unknown[] = [];
    const note = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', note);
    try {
      for (const letGoAfter of [1, 2, 3, 5, 8]) {
        const { zip, entry } = await openZip(path);
        expect((await readZipEntry(zip, entry('TRAILING.txt'), 'trailing.zip')).equals(TEXT)).toBe(true);
        let chunks = 0;
        for await (const _ of await openZipEntry(zip, entry('BIG.txt'), 'trailing.zip'))
          if (++chunks === letGoAfter) break;
        // Reads a member that was let go had queued would fail now, if any were left.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect((await readZipEntry(zip, entry('BIG.txt'), 'trailing.zip')).equals(BIG)).toBe(true);
        zip.close();
      }
    } finally {
      process.off('uncaughtException', note);
    }
    expect(uncaught).toEqual([]);
  });

  it('refuses a member compressed by another method before reading it, and names a damaged one', async () => {
    const path = join(dir, 'trailing.zip');
    await writeZip(path);
    const bytes = readFileSync(path);
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt16LE(12, central + 10); // bzip2
    const other = join(dir, 'bzip2.zip');
    writeFileSync(other, bytes);
    const bzip2 = await openZip(other);
    await expect(openZipEntry(bzip2.zip, bzip2.entry('TRAILING.txt'), 'bzip2.zip')).rejects.toThrow(
      'bzip2.zip: member TRAILING.txt is compressed by method 12',
    );
    bzip2.zip.close();

    // TRAILING.txt's deflate data overwritten: zlib's own error, with the member named.
    const damaged = readFileSync(path);
    const local = damaged.indexOf('TRAILING.txt') + 'TRAILING.txt'.length;
    damaged.fill(0xff, local, local + 40);
    const broken = join(dir, 'damaged.zip');
    writeFileSync(broken, damaged);
    const zip = await openZip(broken);
    await expect(readZipEntry(zip.zip, zip.entry('TRAILING.txt'), 'damaged.zip')).rejects.toThrow(
      /^damaged\.zip: member TRAILING\.txt: /,
    );
    zip.zip.close();
  });
});
