/** Date arithmetic on YYYY-MM-DD strings (UTC) for the freshness rules. */

export const today = (): string => new Date().toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function addMonths(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The quarter-end date after `date`'s quarter end (2026-09-30 → 2026-12-31). */
export function nextQuarterEnd(date: string): string {
  const year = Number(date.slice(0, 4));
  const quarter = Math.ceil(Number(date.slice(5, 7)) / 3);
  const [y, q] = quarter === 4 ? [year + 1, 1] : [year, quarter + 1];
  const month = q * 3;
  return `${y}-${String(month).padStart(2, '0')}-${month === 3 || month === 12 ? 31 : 30}`;
}
