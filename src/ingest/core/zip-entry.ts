/**
 * A ZIP member's bytes as a stream, for every ZIP an ingest reads (yauzl): its raw data inflated
 * here in large writes, and refused unless they are exactly the size the ZIP's directory states.
 */
import { pipeline, type Readable, Transform } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type yauzl from 'yauzl';

/** Opens `entry` of `zip`; `label` names the ZIP in errors. */
export function openZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, label: string): Promise<Readable> {
  const member = `${label}: member ${entry.fileName}`;
  const method = entry.compressionMethod;
  if (entry.isEncrypted() || (method !== 0 && method !== 8)) {
    const how = entry.isEncrypted() ? 'encrypted' : `compressed by method ${method}`;
    return Promise.reject(new Error(`${member} is ${how}`));
  }
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, { decodeFileData: false }, (error, raw) =>
      error ? reject(error) : resolve(decoded(entry, raw, member)),
    ),
  );
}

/** The bytes of a whole member. */
export async function readZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, label: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openZipEntry(zip, entry, label)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Inflate writes of this many bytes. yauzl inflates 16 KiB at a time (zlib's default), and every
 * write is a round trip to libuv's thread pool: a real-scale INFOTABLE (386 MB) inflated in
 * 1.16–1.24 s that way, 0.44–0.47 s in 256 KiB writes (measured; docs/ingest-holdings.md).
 */
const INFLATE_CHUNK = 256 * 1024;

/** The member's bytes from its raw (still compressed) data; yauzl checks their size the same way. */
function decoded(entry: yauzl.Entry, raw: Readable, member: string): Readable {
  const sized = exactly(entry.uncompressedSize, member);
  // Done with the member (read, failed or let go): stop reading its raw data too. Deflate data can
  // end before the bytes the ZIP gives the member, and a raw stream still reading those would hold
  // yauzl's one read at a time of a ZIP opened from a file, and fail the next member's reads.
  sized.once('close', () => raw.destroy());
  // pipeline destroys every stream on an error; the last one, which the reader holds, fails with it.
  if (entry.compressionMethod === 0) return pipeline(raw, sized, () => {});
  const inflate = createInflateRaw({ chunkSize: INFLATE_CHUNK });
  inflate.once('error', (error) => {
    error.message = `${member}: ${error.message}`;
  });
  return pipeline(raw, inflate, sized, () => {});
}

/** Passes bytes through, failing once they are more or fewer than `expected`. */
function exactly(expected: number, label: string): Transform {
  let seen = 0;
  const wrong = () =>
    new Error(`${label} holds ${seen > expected ? 'more than' : `only ${seen} of`} its ${expected} bytes`);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > expected ? wrong() : null, chunk);
    },
    flush(done) {
      done(seen < expected ? wrong() : null);
    },
  });
}
