/**
 * Every source `regdata ingest` knows. To add a group of sources, export an array of IngestSource
 * from its module and spread it here (one import line, one spread), e.g. for SEC:
 *   import { SEC_INGEST_SOURCES } from './sources/sec/index.js';
 *   export const INGEST_SOURCES = [...BANKING_INGEST_SOURCES, ...SEC_INGEST_SOURCES];
 * A source's `group` decides which `regdata ingest <group>` runs it.
 */
import type { IngestSource, SourceGroup } from './core/types.js';
import { BANKING_INGEST_SOURCES } from './sources/banking.js';
import { SEC_INGEST_SOURCES } from './sources/sec/index.js';

export const INGEST_SOURCES: readonly IngestSource[] = [...BANKING_INGEST_SOURCES, ...SEC_INGEST_SOURCES];

export const GROUPS: readonly SourceGroup[] = ['banking', 'holdings'];

export function findSource(name: string, sources = INGEST_SOURCES): IngestSource | undefined {
  return sources.find((s) => s.name === name);
}

export function sourcesOfGroup(group: SourceGroup, sources = INGEST_SOURCES): IngestSource[] {
  return sources.filter((s) => s.group === group);
}
