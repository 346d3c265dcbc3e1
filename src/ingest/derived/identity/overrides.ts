/**
 * Checked-in corrections to the identity graph (config/entity-overrides.json, or the file
 * ENTITY_OVERRIDES_FILE names): `links` are added as `manual` links (confidence 1) when both
 * entities are loaded; `vetoes` remove a link or candidate the matcher made. docs/identity.md.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Override {
  readonly from: string;
  readonly relation: string;
  readonly to: string;
  readonly note?: string;
}

export interface Overrides {
  readonly links: readonly Override[];
  readonly vetoes: readonly Override[];
}

export const DEFAULT_OVERRIDES_FILE = fileURLToPath(
  new URL('../../../../config/entity-overrides.json', import.meta.url),
);

const ID = /^(cert|rssd|cik|crd|cusip|name):\S+$/;

function parseList(value: unknown, where: string): Override[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`${where}: must be an array`);
  return value.map((entry, i) => {
    const { from, relation, to, note } = (entry ?? {}) as Record<string, unknown>;
    if (typeof from !== 'string' || !ID.test(from)) throw new Error(`${where}[${i}].from: not an entity id`);
    if (typeof to !== 'string' || !ID.test(to)) throw new Error(`${where}[${i}].to: not an entity id`);
    if (typeof relation !== 'string' || relation === '') throw new Error(`${where}[${i}].relation: missing`);
    return { from, relation, to, note: typeof note === 'string' ? note : undefined };
  });
}

/** Reads and checks an overrides file; a malformed file fails the load that reads it. */
export function readOverrides(file: string = DEFAULT_OVERRIDES_FILE): Overrides {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return {
    links: parseList(parsed.links, `${file} links`),
    vetoes: parseList(parsed.vetoes, `${file} vetoes`),
  };
}

export const vetoKey = (o: { from: string; relation: string; to: string }) =>
  `${o.from} ${o.relation} ${o.to}`;
