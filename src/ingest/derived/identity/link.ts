/** A node and an edge of the identity graph as the rebuild writes them (entity_links rows). */
import type { Insertable } from 'kysely';
import type { EntityLinksTable } from '../../../db/tables.js';
import type { EntityKind } from './ids.js';

export type Link = Insertable<EntityLinksTable>;

export interface Node {
  readonly id: string;
  readonly kind: EntityKind;
  readonly name: string;
}

export function link(
  from: Node,
  relation: string,
  to: Node,
  source: string,
  method: 'identifier' | 'name_match' | 'manual',
  confidence: number,
  validFrom: string | null = null,
  validTo: string | null = null,
): Link {
  return {
    from_id: from.id,
    from_kind: from.kind,
    from_name: from.name,
    relation,
    to_id: to.id,
    to_kind: to.kind,
    to_name: to.name,
    source,
    method,
    confidence,
    valid_from: validFrom,
    valid_to: validTo,
  };
}
