// Groups check results into the fidelity rows, counts them, and removes every secret from what will be written.
import { VERSION } from '../version.js';
import { DECISIONS } from './decisions.js';
import type { CheckResult, PriceRow, ReportRow, Verdict, VerifyReport } from './report-types.js';

export interface ReportParts {
  service: string;
  startedAt: string;
  settings: VerifyReport['settings'];
  spent: number;
  results: CheckResult[];
  prices: PriceRow[];
  notes: string[];
  /** Strings that must never appear in the report (the API keys), replaced wherever a body echoed them. */
  secrets: string[];
}

export function buildReport(parts: ReportParts): VerifyReport {
  const rows: ReportRow[] = DECISIONS.map((d) => {
    const checks = parts.results.filter((r) => d.checks.some((id) => r.id === id || r.id.startsWith(`${id}:`)));
    const status = verdictOf(checks.map((c) => c.status));
    const row: ReportRow = { id: d.id, decision: d.decision, emulator_does: d.emulator, status, checks };
    if (status === 'not probed') row.reason = checks.find((c) => c.reason)?.reason ?? d.unprobed;
    return row;
  });
  const all = [...rows.map((r) => r.status), ...parts.prices.map((p) => p.status)];
  const count = (v: Verdict) => all.filter((s) => s === v).length;
  const report: VerifyReport = {
    tool: 'media-gen-emulator verify',
    version: VERSION,
    service: parts.service,
    started_at: parts.startedAt,
    finished_at: new Date().toISOString(),
    settings: parts.settings,
    spent: parts.spent,
    summary: { match: count('match'), differs: count('differs'), not_probed: count('not probed') },
    clean: count('differs') === 0,
    rows,
    prices: parts.prices,
    notes: [...new Set(parts.notes)],
  };
  return redact(report, parts.secrets);
}

function verdictOf(statuses: Verdict[]): Verdict {
  if (statuses.includes('differs')) return 'differs';
  return statuses.includes('match') ? 'match' : 'not probed';
}

/** Every string in the value with each secret replaced, so an answer that echoed a key cannot leak it. */
export function redact<T>(value: T, secrets: string[]): T {
  const real = secrets.filter((s) => s.length > 0);
  if (real.length === 0) return value;
  const clean = (v: unknown): unknown => {
    if (typeof v === 'string') return real.reduce((text, secret) => text.split(secret).join('[redacted]'), v);
    if (Array.isArray(v)) return v.map(clean);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [clean(k), clean(x)]));
    return v;
  };
  return clean(value) as T;
}
