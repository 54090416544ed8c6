// The report verify returns and writes: one row per fidelity decision, one per price probed, in JSON and Markdown.
export type Verdict = 'match' | 'differs' | 'not probed';

export interface CheckResult {
  id: string;
  label: string;
  status: Verdict;
  /** What the service answered (summarised as compared: status and code, price, shape or body). */
  live?: unknown;
  /** What the emulator answered to the same request. */
  emulator?: unknown;
  /** Why it was not probed. */
  reason?: string;
  /** What was observed beyond the comparison, e.g. how long a generation took. */
  note?: string;
}

export interface ReportRow {
  id: string;
  decision: string;
  emulator_does: string;
  status: Verdict;
  reason?: string;
  checks: CheckResult[];
}

export interface PriceRow {
  model: string;
  /** The options sent; groups left out are at their default. */
  params: Record<string, string>;
  status: Verdict;
  live?: unknown;
  emulator?: unknown;
}

export interface VerifyReport {
  tool: 'media-gen-emulator verify';
  version: string;
  /** The probed base URL without credentials or query. */
  service: string;
  started_at: string;
  finished_at: string;
  settings: { full: boolean; rps: number; allow_spend: number; scoped_key: boolean; compared_with: string };
  /** Credits the probes could have charged at most (each chargeable request counts its whole ceiling). */
  spent: number;
  summary: { match: number; differs: number; not_probed: number };
  /** True when every probed row and price matches: the exit code is then 0. */
  clean: boolean;
  rows: ReportRow[];
  prices: PriceRow[];
  notes: string[];
}
