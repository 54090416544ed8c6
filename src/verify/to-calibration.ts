// Turns a report into the calibration file the emulator loads: what the service answered wherever it was probed.
import type { CalibrationFile, ShapeName } from './calibration-schema.js';
import type { CheckResult, VerifyReport } from './report-types.js';

const SHAPE_CHECKS: Record<string, ShapeName> = {
  'list-shape': 'list',
  'usage-shape': 'usage',
  'upload-shape': 'upload',
};

type Summary = {
  status?: unknown;
  code?: unknown;
  body?: unknown;
  shape?: unknown;
  credits?: unknown;
  detail?: unknown;
};

export function toCalibration(report: VerifyReport): CalibrationFile {
  const checks = report.rows.flatMap((r) => r.checks);
  const errors: NonNullable<CalibrationFile['errors']> = {};
  for (const c of checks) {
    const ours = (c.emulator as Summary | undefined)?.code;
    const theirs = c.live as Summary | undefined;
    if (typeof ours !== 'string' || typeof theirs?.status !== 'number' || theirs.status < 400 || theirs.status > 599)
      continue;
    if (Object.hasOwn(errors, ours)) continue;
    errors[ours] =
      typeof theirs.code === 'string' ? { status: theirs.status, code: theirs.code } : { status: theirs.status };
  }
  const prices: NonNullable<CalibrationFile['prices']> = {};
  for (const p of report.prices) {
    const live = p.live as Summary | undefined;
    if (live?.status !== 200 || typeof live.credits !== 'number') continue;
    const rows = prices[p.model] ?? [];
    rows.push({ params: p.params, credits: live.credits });
    prices[p.model] = rows;
  }
  const shapes: NonNullable<CalibrationFile['shapes']> = {};
  for (const c of checks)
    if (c.status === 'differs' && Object.hasOwn(SHAPE_CHECKS, c.id))
      shapes[SHAPE_CHECKS[c.id]] = (c.live as Summary).shape;
  return {
    version: 1,
    observed_at: report.finished_at,
    service: report.service,
    errors,
    ...catalogue(checks),
    prices,
    shapes,
  };
}

/**
 * Always recorded, every answer of it: the live catalogue is the final authority (spec 2.5), and a run against an
 * already calibrated emulator must write the same file again rather than drop what now matches.
 */
function catalogue(checks: CheckResult[]): Pick<CalibrationFile, 'catalogue'> {
  const answers = checks.filter((c) => c.id === 'catalogue' || c.id.startsWith('catalogue-kinds:'));
  const body = (c: CheckResult | undefined) =>
    (c?.live as Summary | undefined)?.status === 200 ? (c!.live as Summary).body : undefined;
  const all = body(answers.find((c) => c.id === 'catalogue'));
  if (all === undefined) return {};
  const byKind: Record<string, unknown> = {};
  for (const c of answers) {
    const kind = c.id.startsWith('catalogue-kinds:') ? c.id.slice('catalogue-kinds:'.length) : undefined;
    const answer = body(c);
    if (kind !== undefined && answer !== undefined) byKind[kind] = answer;
  }
  return { catalogue: { all, by_kind: byKind } };
}
