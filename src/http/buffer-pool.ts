/**
 * The buffers whole-portfolio answers are written into (json-buffer.ts), reused from one answer to
 * the next instead of going back to malloc: each such answer is 1–3 MB, and a fresh allocation per
 * request either came from glibc's heaps, which kept it once freed (a serving process's RSS grew by
 * hundreds of MB), or — with malloc told to hand such memory back — from a fresh mapping whose pages
 * faulted in on every request (the largest portfolio 5 → 10 ms). Sizes are powers of two from 64 KB;
 * at most MAX_POOLED_BYTES wait in the pool. The response cache stores a copy of a body, never the
 * pooled buffer itself (cache.ts).
 */

const MIN_BYTES = 64 * 1024;
/** Bytes the pool holds at most (ten concurrent 4 MB answers). */
const MAX_POOLED_BYTES = 48 * 1024 * 1024;

const free: Buffer[] = [];
let pooledBytes = 0;

function sizeFor(bytes: number): number {
  let size = MIN_BYTES;
  while (size < bytes) size *= 2;
  return size;
}

/** A buffer of at least `bytes` (its contents are whatever was there). */
export function takeBuffer(bytes: number): Buffer {
  const size = sizeFor(bytes);
  let best = -1;
  for (let i = 0; i < free.length; i++) {
    const length = (free[i] as Buffer).length;
    if (length >= size && (best < 0 || length < (free[best] as Buffer).length)) best = i;
  }
  if (best < 0) return Buffer.allocUnsafeSlow(size);
  const [buffer] = free.splice(best, 1) as [Buffer];
  pooledBytes -= buffer.length;
  return buffer;
}

/** Gives back a buffer from `takeBuffer` that nothing reads any more. */
export function returnBuffer(buffer: Buffer): void {
  if (buffer.length < MIN_BYTES) return;
  while (free.length > 0 && pooledBytes + buffer.length > MAX_POOLED_BYTES) {
    // Make room by dropping the smallest: large answers are the ones worth keeping a buffer for.
    let smallest = 0;
    for (let i = 1; i < free.length; i++)
      if ((free[i] as Buffer).length < (free[smallest] as Buffer).length) smallest = i;
    pooledBytes -= (free.splice(smallest, 1)[0] as Buffer).length;
  }
  if (pooledBytes + buffer.length > MAX_POOLED_BYTES) return;
  free.push(buffer);
  pooledBytes += buffer.length;
}
