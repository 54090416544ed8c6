// How the properties run: short and repeatable by default (fixed seed), longer and exploring with FAST_CHECK_RUNS=n
// (n times the cases, a fresh seed each run), and FAST_CHECK_SEED=s replays a seed that fast-check reported.
const factor = Number(process.env.FAST_CHECK_RUNS ?? 1);
const long = process.env.FAST_CHECK_RUNS !== undefined;
const seed =
  process.env.FAST_CHECK_SEED !== undefined ? Number(process.env.FAST_CHECK_SEED) : long ? undefined : 20_260_301;

/** `base` runs by default; `base * FAST_CHECK_RUNS` when the variable is set. */
export const RUNS = (base: number) =>
  Math.max(1, Math.round(base * (Number.isFinite(factor) && factor > 0 ? factor : 1)));

/** A test timeout that grows with FAST_CHECK_RUNS. */
export const TIMEOUT = (baseMs: number) => RUNS(baseMs);

/** fast-check parameters for a property with `base` cases by default. */
export const PARAMETERS = (base: number) => ({ numRuns: RUNS(base), ...(seed === undefined ? {} : { seed }) });
