/**
 * Packed values (change-pack.ts, portfolio-pack.ts) and the radix ordering of values by their bits
 * (ascending-order.ts) read numbers through typed arrays, in this machine's byte order; their formats
 * and word order are little-endian, which holds only on a little-endian machine (every platform Node
 * supports today). Called once at module load by each of them.
 */
import { endianness } from 'node:os';

export function requireLittleEndian(what: string): void {
  if (endianness() !== 'LE') throw new Error(`${what} needs a little-endian machine`);
}
