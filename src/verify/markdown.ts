// Renders a verify report as Markdown: the summary, the fidelity rows, the prices, then the details of what differs.
import { describeParams } from './option-sets.js';
import type { CheckResult, VerifyReport } from './report-types.js';

const MAX_SHOWN = 600;

export function toMarkdown(report: VerifyReport): string {
  const { summary: s, settings } = report;
  const lines = [
    `# Verify report: ${report.service}`,
    '',
    `${report.clean ? 'Clean: everything probed matches.' : 'Differences found.'} ${s.match} match, ${s.differs} differ, ${s.not_probed} not probed.`,
    '',
    `- Compared with: ${settings.compared_with}`,
    `- Run: ${report.started_at} to ${report.finished_at}, ${settings.rps} requests/s, ${settings.full ? 'every option combination' : 'each option value once'}`,
    `- Spend: at most ${report.spent} of ${settings.allow_spend} credits allowed; scoped key ${settings.scoped_key ? 'given' : 'not given'}`,
    `- Emulator ${report.version}`,
    '',
    '## Fidelity decisions',
    '',
    '| decision | the emulator does | result | detail |',
    '| --- | --- | --- | --- |',
    ...report.rows.map(
      (r) =>
        `| ${cell(r.decision)} | ${cell(r.emulator_does)} | **${r.status}** | ${cell(r.status === 'not probed' ? (r.reason ?? '') : rowDetail(r.checks))} |`,
    ),
    '',
    '## Prices',
    '',
    '| model | options | service | emulator | result |',
    '| --- | --- | --- | --- | --- |',
    ...report.prices.map(
      (p) =>
        `| ${cell(p.model)} | ${cell(describeParams(p.params))} | ${cell(short(p.live))} | ${cell(short(p.emulator))} | **${p.status}** |`,
    ),
  ];
  const differing = report.rows.flatMap((r) =>
    r.checks.filter((c) => c.status === 'differs').map((c) => ({ row: r.id, c })),
  );
  if (differing.length > 0) {
    lines.push('', '## What differs', '');
    for (const { row, c } of differing)
      lines.push(
        `### ${row}: ${c.label}`,
        '',
        `- service: \`${clip(c.live)}\``,
        `- emulator: \`${clip(c.emulator)}\``,
        '',
      );
  }
  if (report.notes.length > 0) lines.push('', '## Notes', '', ...report.notes.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
}

function rowDetail(checks: CheckResult[]): string {
  return checks
    .map(
      (c) =>
        `${c.label}: ${c.status}${c.status === 'differs' ? ` (service ${short(c.live)}, emulator ${short(c.emulator)})` : ''}${c.note ? `; ${c.note}` : ''}`,
    )
    .join('; ');
}

function short(value: unknown): string {
  if (value === undefined) return '';
  const v = value as { credits?: unknown; status?: unknown; code?: unknown };
  if (v && typeof v === 'object' && 'credits' in v && v.status === 200) return String(v.credits);
  if (v && typeof v === 'object' && 'code' in v) return `${String(v.status)} ${String(v.code)}`;
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function clip(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return (text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}... (full answer in the JSON report)` : text).replace(
    /`/g,
    "'",
  );
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
