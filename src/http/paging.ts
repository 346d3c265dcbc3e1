import { Type } from 'typebox';

export interface Page {
  limit: number;
  offset: number;
}

/** The envelope fields every paginated list carries. */
export const pageEnvelopeFields = {
  total: Type.Integer({ description: 'Number of records matching the filters (all pages)' }),
  limit: Type.Integer({ description: 'The limit applied (after clamping to the maximum)' }),
  offset: Type.Integer({ description: 'The offset applied; 0 when none was sent' }),
};

/**
 * The total implied by a page, when the page shows it: a page shorter than `limit` that holds rows
 * (or the empty first page) ends the list, so total = offset + rows. Otherwise undefined, and the
 * caller counts. Lists ask for the page first and count only when they must: most pages of a
 * filtered list are its only page, and a count costs as much as the page.
 */
export function totalFromPage(rows: number, page: Page): number | undefined {
  if (rows >= page.limit) return undefined;
  if (rows === 0 && page.offset > 0) return undefined;
  return page.offset + rows;
}

/** The page and its total: `count` runs only when the page does not imply the total. */
export async function pageWithTotal<T>(
  page: Page,
  list: () => Promise<T[]>,
  count: () => Promise<number>,
): Promise<{ data: T[]; total: number }> {
  const data = await list();
  return { data, total: totalFromPage(data.length, page) ?? (await count()) };
}
