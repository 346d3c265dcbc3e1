/**
 * Bank → top holding company links with their validity: FDIC financials carry the holding company
 * per report date (RSSDHCR, NAMEHCR), so a run of report dates with the same parent is one link
 * valid from its first to its last report date (open-ended, valid_to null, while it is the bank's
 * current parent). The institutions record supplies the current parent when it is newer than the
 * financials, or for banks without financials. FFIEC rows do not name a parent and are skipped.
 */
import type { Executor } from '../../sources/sec/holdings/derive/executor.js';
import { certId, holdingCompanyId } from './ids.js';
import { type Link, link, type Node } from './link.js';

interface Run {
  parent: Node | null;
  from: string;
  to: string;
}

const parentLink = (bank: Node, parent: Node, source: string, from: string | null, to: string | null) =>
  link(bank, 'subsidiary_of', parent, source, 'identifier', 1, from, to);

/** Runs of equal parents over a bank's report dates (rows in date order). */
async function parentRuns(
  executor: Executor,
  parentNode: (rssd: number | null, name: string | null) => Node | null,
) {
  const rows = await executor
    .selectFrom('financials')
    .select(['cert', 'report_date', 'holding_company', 'holding_company_rssd'])
    .where('source', '!=', 'ffiec')
    .orderBy('cert')
    .orderBy('report_date')
    .execute();
  const runs = new Map<number, Run[]>();
  for (const row of rows) {
    const parent = parentNode(
      row.holding_company_rssd === null ? null : Number(row.holding_company_rssd),
      row.holding_company,
    );
    const list = runs.get(row.cert) ?? [];
    const last = list.at(-1);
    if (last && last.parent?.id === parent?.id) last.to = row.report_date;
    else list.push({ parent, from: row.report_date, to: row.report_date });
    runs.set(row.cert, list);
  }
  return runs;
}

export async function bankParentLinks(executor: Executor) {
  const parents = new Map<string, Node>();
  const parentNode = (rssd: number | null, name: string | null): Node | null => {
    const id = holdingCompanyId(rssd, name);
    if (id === null) return null;
    const known = parents.get(id);
    if (known) return known;
    const node: Node = { id, kind: 'holding_company', name: name ?? `RSSD ${rssd}` };
    parents.set(id, node);
    return node;
  };
  const institutions = await executor
    .selectFrom('institutions')
    .select(['cert', 'name', 'holding_company', 'holding_company_rssd', 'active', 'asset_size'])
    .execute();
  // The institutions record names each parent as it is called today; seen first, its name wins.
  for (const i of institutions)
    parentNode(i.holding_company_rssd === null ? null : Number(i.holding_company_rssd), i.holding_company);
  const runs = await parentRuns(executor, parentNode);
  const banks: Node[] = [];
  const links: Link[] = [];
  const independent: (Node & { size: number })[] = [];
  /** A parent's size: its active banks' latest total assets, which tell namesakes apart. */
  const sizes = new Map<string, number>();
  for (const institution of institutions) {
    const bank: Node = { id: certId(institution.cert), kind: 'bank', name: institution.name };
    banks.push(bank);
    const rssd = institution.holding_company_rssd === null ? null : Number(institution.holding_company_rssd);
    const current = parentNode(rssd, institution.holding_company);
    const bankRuns = runs.get(institution.cert) ?? [];
    const last = bankRuns.at(-1);
    const currentIsLast = last !== undefined && last.parent?.id === current?.id;
    for (const run of bankRuns) {
      if (run.parent === null) continue;
      // The latest run stays open while the bank is active and still has that parent.
      const open = run === last && currentIsLast && institution.active === 1;
      links.push(parentLink(bank, run.parent, 'fdic-financials', run.from, open ? null : run.to));
    }
    if (current !== null && !currentIsLast)
      links.push(parentLink(bank, current, 'fdic-institutions', last?.to ?? null, null));
    const assets = institution.active === 1 ? Number(institution.asset_size ?? 0) : 0;
    if (current !== null) sizes.set(current.id, (sizes.get(current.id) ?? 0) + assets);
    else if (institution.active === 1) independent.push({ ...bank, size: assets });
  }
  return {
    nodes: [...banks, ...parents.values()],
    links,
    /** Who can be an SEC registrant: every holding company, and active banks without one. */
    registrationSubjects: [
      ...[...parents.values()].map((parent) => ({ ...parent, size: sizes.get(parent.id) ?? 0 })),
      ...independent,
    ],
  };
}
