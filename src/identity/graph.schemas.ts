/** Response schemas of the identity graph (SPEC §7), shared by /api/entities and the bank profile. */
import { Type } from 'typebox';

const nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);

export const EntityRef = Type.Object({
  id: Type.String({
    description:
      'Entity id, `scheme:value` (`cert:628`, `rssd:1039502`, `cik:0000019617`, `crd:105958`, `cusip:46625H100`, `name:…` for a holding company known only by name)',
  }),
  kind: Type.String({
    description:
      '`bank`, `holding_company`, `sec_registrant`, `manager` (13F filer), `adviser` or `security`',
  }),
  name: Type.Union([Type.String(), Type.Null()], { description: 'Name as its source writes it' }),
});

export const LinkSchema = Type.Object({
  relation: Type.String({
    description:
      '`subsidiary_of` (bank → top holding company), `registered_as` (holding company, or a bank without one → SEC registrant), `issuer_of` (registrant → security), `files_13f_as` (registrant → 13F filer, same CIK), `same_firm_as` (adviser → 13F filer)',
  }),
  from: EntityRef,
  to: EntityRef,
  source: Type.String({
    description:
      'The load the link comes from (`fdic-financials`, `fdic-institutions`, `sec-registrants`, `sec-securities`, `sec-13f`, `sec-advisers`) or `overrides`',
  }),
  method: Type.String({
    description:
      '`identifier` (the source states it: RSSDHCR/NAMEHCR, the same CIK, a CRD on the 13F cover page, a ticker), `name_match` (normalised names, similarity ≥ 0.9; docs/identity.md) or `manual` (config/entity-overrides.json)',
  }),
  confidence: Type.Number({
    description:
      '1 for identifier and manual links; the name similarity (0.9–1) for name matches; 0.8–0.9 or ambiguous for candidates',
  }),
  valid_from: nullable(
    Type.String({ description: 'First report date (YYYY-MM-DD) the link is seen; null when undated' }),
  ),
  valid_to: nullable(Type.String({ description: 'Last report date the link held; null while it holds' })),
});

export const HopLink = Type.Intersect([
  LinkSchema,
  Type.Object({
    hops: Type.Integer({
      description: '1: a link of the entity itself; 2: a link of an entity one link away',
    }),
  }),
]);

export const EntitySchema = Type.Object({
  id: Type.String({
    description:
      'Canonical id: a bank is `cert:`, a registrant or 13F filer `cik:`, an adviser `crd:`, a security `cusip:`',
  }),
  kind: Type.String({ description: 'Entity kind (see links)' }),
  name: Type.String(),
  identifiers: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'Every identifier known for the entity (cert and rssd; cik, tickers and exchange; crd and sec_number; cusip and ticker)',
  }),
});

export const ResolveQuery = Type.Object({
  id: Type.String({
    minLength: 3,
    maxLength: 40,
    description:
      'Entity id `scheme:value`, schemes `cert`, `rssd`, `cik` (1–10 digits), `crd`, `cusip` (9 characters), `ticker`',
  }),
});

export const ResolveSchema = Type.Object({
  query: Type.String({ description: 'The id as asked' }),
  entity: EntitySchema,
  links: Type.Array(HopLink, {
    description: `Links in both directions, the entity's own first (hops 1), then those of its neighbours (hops 2); at most 500`,
  }),
  links_truncated: Type.Boolean({ description: 'True when more than 500 links were reachable' }),
  candidates: Type.Array(LinkSchema, {
    description:
      'Name matches not linked: similarity 0.8–0.9, or a name several entities share; for review, never followed',
  }),
});
