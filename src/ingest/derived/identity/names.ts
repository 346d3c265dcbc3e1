/**
 * Name matching for the identity graph (docs/identity.md). Both sides are normalised the same way,
 * then compared by Levenshtein similarity (1 − distance / longer length). A pair is linked only at
 * LINK_SIMILARITY or above and only when neither side's name is shared by another entity (several
 * holding companies called FIRST BANCORP cannot be told apart by name); weaker or ambiguous pairs
 * from CANDIDATE_SIMILARITY up are kept as candidates.
 */
import { distance } from 'fastest-levenshtein';

export const LINK_SIMILARITY = 0.9;
export const CANDIDATE_SIMILARITY = 0.8;

/** EDGAR's abbreviations, written out so both sides spell a word the same way. */
const ABBREVIATIONS: Record<string, string> = {
  BANCSHS: 'BANCSHARES',
  BK: 'BANK',
  BKS: 'BANKS',
  CMNTY: 'COMMUNITY',
  FINL: 'FINANCIAL',
  GRP: 'GROUP',
  HLDG: 'HOLDING',
  HLDGS: 'HOLDINGS',
  INTL: 'INTERNATIONAL',
  NATL: 'NATIONAL',
  SVCS: 'SERVICES',
  SVGS: 'SAVINGS',
  TR: 'TRUST',
  MTN: 'MOUNTAIN',
};

/** Legal forms dropped from the end of a name (repeatedly: `… CO INC` loses both). */
const LEGAL_SUFFIXES = new Set([
  'INC',
  'INCORPORATED',
  'CORP',
  'CORPORATION',
  'CO',
  'COMPANY',
  'LTD',
  'LIMITED',
  'LLC',
  'LP',
  'PLC',
  'NA',
  'AND',
  'THE',
]);

/**
 * `JPMorgan Chase & Co.` and `JPMORGAN CHASE & CO` → `JPMORGAN CHASE`; `Zions Bancorporation, N.A.`
 * and `ZIONS BANCORPORATION, NATIONAL ASSOCIATION` → `ZIONS BANCORPORATION`; `KEYCORP /NEW/` →
 * `KEYCORP`; `CITIZENS FINANCIAL GROUP INC/RI` → `CITIZENS FINANCIAL GROUP`.
 */
export function normaliseEntityName(name: string): string {
  const upper = name
    .toUpperCase()
    // SEC's state and status tags: `/DE/`, `\DE\`, `/NEW/`, and a trailing `/RI`.
    .replace(/\s*[/\\][A-Z]{2,3}[/\\]/g, ' ')
    .replace(/\s*[/\\][A-Z]{2}\s*$/, ' ')
    .replace(/\bN\.\s?A\.?(?=\s|,|$)/g, ' NA ')
    .replace(/\bNATIONAL ASSOCIATION\b/g, ' NA ')
    .replace(/&/g, ' AND ')
    .replace(/[^A-Z0-9]+/g, ' ');
  const words = joinInitials(
    upper
      .trim()
      .split(' ')
      .filter((word) => word !== '')
      .map((word) => ABBREVIATIONS[word] ?? word),
  );
  while (words.length > 1 && LEGAL_SUFFIXES.has(words.at(-1) as string)) words.pop();
  if (words.length > 1 && words[0] === 'THE') words.shift();
  return words.join(' ');
}

/** Initials become one word: `U S BANCORP` → `US BANCORP`, `N A` → `NA`, `F N B` → `FNB`. */
function joinInitials(words: readonly string[]): string[] {
  const joined: string[] = [];
  let previousWasInitial = false;
  for (const word of words) {
    if (word.length === 1 && previousWasInitial) joined[joined.length - 1] += word;
    else joined.push(word);
    previousWasInitial = word.length === 1;
  }
  return joined;
}

/** The name without spaces, so `SOUTH STATE` meets `SOUTHSTATE`. */
const compact = (normalised: string) => normalised.replace(/ /g, '');

/** 1 − Levenshtein distance / length of the longer name, on normalised names, spaces ignored. */
export function nameSimilarity(a: string, b: string): number {
  const [x, y] = [compact(a), compact(b)];
  const longer = Math.max(x.length, y.length);
  return longer === 0 ? 0 : 1 - distance(x, y) / longer;
}

export interface Named {
  readonly id: string;
  readonly name: string;
  /** Extra key both sides must share (e.g. the state), or undefined. */
  readonly block?: string | null;
  /**
   * Size (a holding company's banks' total assets): of several left entities sharing a name, one
   * at least SIZE_DOMINANCE times the size of every other is taken as the name's bearer.
   */
  readonly size?: number | null;
}

/** How much larger a namesake must be to be told apart from the others by size. */
export const SIZE_DOMINANCE = 10;

export interface NameMatch<L, R> {
  readonly left: L;
  readonly right: R;
  readonly similarity: number;
  /** True when the pair is linked; false for a candidate (weaker, or a name several entities share). */
  readonly linked: boolean;
}

/** Compared only within a block: the same `block` value and the same first four letters. */
function blockKey(named: Named, normalised: string): string {
  return `${named.block ?? ''}\u0000${compact(normalised).slice(0, 4)}`;
}

/** Every left entity's best right match; blocks keep the cost near-linear. */
export function matchNames<L extends Named, R extends Named>(
  lefts: readonly L[],
  rights: readonly R[],
): NameMatch<L, R>[] {
  const namesakes = new Map<string, Map<string, number>>();
  const keyOfLeft = new Map<L, string>();
  for (const left of lefts) {
    const key = normaliseEntityName(left.name);
    keyOfLeft.set(left, key);
    const scoped = `${left.block ?? ''}\u0000${compact(key)}`;
    const sizes = namesakes.get(scoped) ?? new Map<string, number>();
    sizes.set(left.id, Math.max(sizes.get(left.id) ?? 0, left.size ?? 0));
    namesakes.set(scoped, sizes);
  }
  /** Whether the name is shared with another entity that is not SIZE_DOMINANCE times smaller. */
  const sharedName = (left: L, key: string) => {
    const sizes = namesakes.get(`${left.block ?? ''}\u0000${compact(key)}`) as Map<string, number>;
    const own = sizes.get(left.id) as number;
    return [...sizes].some(([id, size]) => id !== left.id && size * SIZE_DOMINANCE > own);
  };
  const blocks = new Map<string, { right: R; key: string }[]>();
  for (const right of rights) {
    const key = normaliseEntityName(right.name);
    if (key === '') continue;
    const block = blockKey(right, key);
    const list = blocks.get(block) ?? [];
    list.push({ right, key });
    blocks.set(block, list);
  }
  const matches: NameMatch<L, R>[] = [];
  for (const left of lefts) {
    const key = keyOfLeft.get(left) as string;
    if (key === '') continue;
    const scored = (blocks.get(blockKey(left, key)) ?? [])
      .map(({ right, key: rightKey }) => ({ right, similarity: nameSimilarity(key, rightKey) }))
      .filter((s) => s.similarity >= CANDIDATE_SIMILARITY)
      .sort((a, b) => b.similarity - a.similarity);
    const best = scored[0];
    if (!best) continue;
    // Ties with another right entity, or a left name shared by other entities, make it ambiguous.
    const rivals = scored.filter(
      (s) => s.right.id !== best.right.id && s.similarity >= best.similarity - 0.02,
    );
    const linked = best.similarity >= LINK_SIMILARITY && rivals.length === 0 && !sharedName(left, key);
    matches.push({ left, right: best.right, similarity: round(best.similarity), linked });
    if (!linked) {
      for (const rival of rivals) {
        matches.push({ left, right: rival.right, similarity: round(rival.similarity), linked: false });
      }
    }
  }
  return oneToOne(matches);
}

/**
 * A right entity is linked to one left entity at most: the closest, when no other comes within
 * 0.02 (PLANTERS & MERCHANTS BANCORP must not take PLANTERS & MECHANICS BANCORP's registrant).
 */
function oneToOne<L extends Named, R extends Named>(matches: NameMatch<L, R>[]): NameMatch<L, R>[] {
  const best = new Map<string, number[]>();
  for (const match of matches) {
    if (!match.linked) continue;
    const scores = best.get(match.right.id) ?? [];
    scores.push(match.similarity);
    best.set(match.right.id, scores);
  }
  return matches.map((match) => {
    if (!match.linked) return match;
    const scores = (best.get(match.right.id) as number[]).sort((a, b) => b - a);
    const top = scores[0] as number;
    const unique = scores.filter((score) => score >= top - 0.02).length === 1;
    return match.similarity === top && unique ? match : { ...match, linked: false };
  });
}

const round = (value: number) => Math.round(value * 1000) / 1000;
