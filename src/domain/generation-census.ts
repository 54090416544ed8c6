// The console's view of the generations: how many there are by status, and one page of them, by model and text.
import { GENERATION_STATUSES, type Generation, type GenerationStatus } from './generation.js';

export interface CensusFilter {
  modelSlug?: string;
  /** Only generations whose id or prompt contains it, in any case. */
  text?: string;
  /** Only this status on the page (the counts still give every status). */
  status?: GenerationStatus;
}

export interface Census {
  counts: Record<GenerationStatus, number>;
  /** How many match the filter, status included: what the page is a window of. */
  total: number;
  items: Generation[];
}

/** The text as the search compares it: trimmed and lower-cased, or undefined when it is empty. */
export function foldText(text: string | undefined): string | undefined {
  const folded = text?.trim().toLowerCase();
  return folded ? folded : undefined;
}

export const textMatches = (g: Generation, folded: string) =>
  g.id.toLowerCase().includes(folded) || g.prompt.toLowerCase().includes(folded);

/** Counts by status, every status present (0 when none). */
export function allStatuses(counts: Partial<Record<string, number>>): Record<GenerationStatus, number> {
  return Object.fromEntries(GENERATION_STATUSES.map((status) => [status, counts[status] ?? 0])) as Record<
    GenerationStatus,
    number
  >;
}

/** How many of `counts` there are in all. */
export const totalOf = (counts: Record<GenerationStatus, number>) =>
  GENERATION_STATUSES.reduce((sum, status) => sum + counts[status], 0);

/** One pass over `newestFirst` (already filtered by model) for a store without SQL behind it: the heap's generations. */
export function censusOf(
  newestFirst: Iterable<Generation>,
  filter: CensusFilter,
  offset: number,
  limit: number,
): Census {
  const text = foldText(filter.text);
  const counts = allStatuses({});
  const items: Generation[] = [];
  let total = 0;
  for (const g of newestFirst) {
    if (text && !textMatches(g, text)) continue;
    counts[g.status] += 1;
    if (filter.status && g.status !== filter.status) continue;
    if (total >= offset && total < offset + limit) items.push(g);
    total += 1;
  }
  return { counts, total, items };
}
