/**
 * Rebuilds the identity graph (SPEC §7, docs/identity.md) from the served tables, inside the swap
 * transaction of every load that can change it (banking institutions and financials, SEC
 * registrants, 13F filings, advisers, securities) and of the demo. The whole graph is rebuilt: it is
 * small next to the tables it reads, and a rebuild cannot leave links to entities a load removed.
 */
import { insertRows } from '../../../db/bulk.js';
import type { DbHandle } from '../../../db/connect.js';
import type { IngestContext } from '../../core/types.js';
import type { Executor } from '../../sources/sec/holdings/derive/executor.js';
import { bankParentLinks } from './bank-parents.js';
import { cikId, crdId, cusipId } from './ids.js';
import { type Link, link, type Node } from './link.js';
import { matchNames } from './names.js';
import { type Overrides, readOverrides, vetoKey } from './overrides.js';

async function registrantNodes(executor: Executor) {
  const rows = await executor
    .selectFrom('sec_registrants')
    .select(['cik', 'name', 'ticker'])
    .orderBy('cik')
    .orderBy('ordinal')
    .execute();
  const byCik = new Map<string, Node & { tickers: string[] }>();
  for (const row of rows) {
    const node = byCik.get(row.cik) ?? {
      id: cikId(row.cik),
      kind: 'sec_registrant',
      name: row.name,
      tickers: [],
    };
    node.tickers.push(row.ticker);
    byCik.set(row.cik, node);
  }
  return byCik;
}

/** Registrant → its securities: a ticker of the registrant on a security gives the issuer (CUSIP-6). */
async function issuerLinks(executor: Executor, registrants: Map<string, Node & { tickers: string[] }>) {
  const securities = await executor.selectFrom('securities').select(['cusip', 'issuer', 'ticker']).execute();
  const registrantOfTicker = new Map<string, Node>();
  for (const registrant of registrants.values())
    for (const ticker of registrant.tickers) registrantOfTicker.set(ticker, registrant);
  const issuerOf = new Map<string, Node>();
  for (const security of securities) {
    const registrant = security.ticker === null ? undefined : registrantOfTicker.get(security.ticker);
    if (registrant) issuerOf.set(security.cusip.slice(0, 6), registrant);
  }
  const links: Link[] = [];
  for (const security of securities) {
    const registrant = issuerOf.get(security.cusip.slice(0, 6));
    if (!registrant) continue;
    const node: Node = { id: cusipId(security.cusip), kind: 'security', name: security.issuer };
    links.push(link(registrant, 'issuer_of', node, 'sec-securities', 'identifier', 1));
  }
  return links;
}

async function managerNodes(executor: Executor) {
  const rows = await executor.selectFrom('managers').select(['cik', 'name', 'city', 'state']).execute();
  return new Map(rows.map((row) => [row.cik, { ...row, id: cikId(row.cik), kind: 'manager' as const }]));
}

/** Adviser → 13F filer: the CIK Form ADV's CRD leads to (advisers.cik), else name within city and state. */
async function adviserLinks(executor: Executor, managers: Awaited<ReturnType<typeof managerNodes>>) {
  const advisers = await executor
    .selectFrom('advisers')
    .select(['crd', 'name', 'cik', 'city', 'state'])
    .execute();
  const links: Link[] = [];
  const candidates: Link[] = [];
  const nodes: Node[] = [];
  const unmatched = [];
  for (const adviser of advisers) {
    const node = { id: crdId(adviser.crd), kind: 'adviser' as const, name: adviser.name };
    nodes.push(node);
    const manager = adviser.cik === null ? undefined : managers.get(adviser.cik);
    if (manager) links.push(link(node, 'same_firm_as', manager, 'sec-advisers', 'identifier', 1));
    else if (adviser.state !== null) unmatched.push({ ...node, block: adviser.state, city: adviser.city });
  }
  const withState = [...managers.values()]
    .filter((m) => m.state !== null)
    .map((m) => ({ ...m, block: m.state }));
  for (const match of matchNames(unmatched, withState)) {
    const sameCity = match.left.city?.toUpperCase() === match.right.city?.toUpperCase();
    const row = link(match.left, 'same_firm_as', match.right, 'sec-advisers', 'name_match', match.similarity);
    (match.linked && sameCity ? links : candidates).push(row);
  }
  return { links, candidates, nodes };
}

/** Holding company (or a bank without one) → the SEC registrant of the same name. */
function registrationLinks(parents: readonly Node[], registrants: readonly Node[]) {
  const links: Link[] = [];
  const candidates: Link[] = [];
  for (const match of matchNames(parents, registrants)) {
    const source = match.left.kind === 'bank' ? 'fdic-institutions' : 'sec-registrants';
    const row = link(match.left, 'registered_as', match.right, source, 'name_match', match.similarity);
    (match.linked ? links : candidates).push(row);
  }
  return { links, candidates };
}

function applyOverrides(links: Link[], candidates: Link[], overrides: Overrides, nodes: Map<string, Node>) {
  const vetoed = new Set(overrides.vetoes.map(vetoKey));
  const keep = (row: Link) =>
    !vetoed.has(vetoKey({ from: row.from_id, relation: row.relation, to: row.to_id }));
  const kept = links.filter(keep);
  const present = new Set(
    kept.map((row) => vetoKey({ from: row.from_id, relation: row.relation, to: row.to_id })),
  );
  for (const manual of overrides.links) {
    const from = nodes.get(manual.from);
    const to = nodes.get(manual.to);
    if (!from || !to || present.has(vetoKey(manual))) continue;
    kept.push(link(from, manual.relation, to, 'overrides', 'manual', 1));
  }
  return { links: kept, candidates: candidates.filter(keep) };
}

export async function rebuildEntityLinks(
  handle: DbHandle,
  executor: Executor,
  overrides: Overrides = readOverrides(),
): Promise<{ links: number; candidates: number }> {
  const parents = await bankParentLinks(executor);
  const registrants = await registrantNodes(executor);
  const managers = await managerNodes(executor);
  const nodes = new Map<string, Node>();
  for (const node of [...parents.nodes, ...registrants.values(), ...managers.values()])
    nodes.set(node.id, node);

  const registrantList = [...registrants.values()];
  const registration = registrationLinks(parents.registrationSubjects, registrantList);
  const advisers = await adviserLinks(executor, managers);
  const filers: Link[] = [];
  for (const [cik, registrant] of registrants) {
    const manager = managers.get(cik);
    if (manager) filers.push(link(registrant, 'files_13f_as', manager, 'sec-13f', 'identifier', 1));
  }
  for (const node of advisers.nodes) nodes.set(node.id, node);
  const all = [
    ...parents.links,
    ...registration.links,
    ...(await issuerLinks(executor, registrants)),
    ...filers,
    ...advisers.links,
  ];
  const { links, candidates } = applyOverrides(
    all,
    [...registration.candidates, ...advisers.candidates],
    overrides,
    nodes,
  );
  await executor.deleteFrom('entity_links').execute();
  await executor.deleteFrom('entity_link_candidates').execute();
  await insertRows(handle, 'entity_links', links, executor);
  await insertRows(handle, 'entity_link_candidates', candidates, executor);
  return { links: links.length, candidates: candidates.length };
}

/** Registers the rebuild as a swap step of a load that can change the graph (overrides read now). */
export function rebuildEntityLinksOnSwap(ctx: IngestContext): void {
  const overrides = readOverrides(ctx.config.entityOverridesFile ?? undefined);
  ctx.onSwap((trx) => rebuildEntityLinks(ctx.handle, trx, overrides));
}
