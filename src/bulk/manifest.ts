/**
 * The export a server publishes (EXPORT_DIR): its manifest, re-read when the file changes (a newer
 * `regdata export` renames a new manifest into place), so the server never needs a restart.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST, type Manifest } from '../export/types.js';

export interface PublishedExport {
  readonly manifest: Manifest;
  readonly modified: Date;
}

export function publishedExport(dir: string | null): () => PublishedExport | null {
  let cached: { mtimeMs: number; size: number; value: PublishedExport } | null = null;
  return () => {
    if (dir === null) return null;
    const path = join(dir, MANIFEST);
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path);
    } catch {
      return null;
    }
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.value;
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
    cached = { mtimeMs: stat.mtimeMs, size: stat.size, value: { manifest, modified: stat.mtime } };
    return cached.value;
  };
}
