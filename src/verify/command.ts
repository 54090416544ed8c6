// `media-gen-emulator verify`: flags to verifyAgainst, the report and calibration written to files, an exit code.
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import writeFileAtomic from 'write-file-atomic';
import { CatalogueError } from '../domain/catalogue.js';
import { CalibrationError } from './calibration.js';
import { toMarkdown } from './markdown.js';
import { toCalibration } from './to-calibration.js';
import { VerifyError, verifyAgainst } from './verify.js';

export const VERIFY_HELP = `media-gen-emulator verify: compare a live deployment of the API with the emulator (docs/verify.md)

Usage: media-gen-emulator verify --base-url URL --api-key KEY [options]

  --base-url URL             the service, e.g. https://staging.example.com (a trailing /v1/media is fine)
  --api-key KEY              its key (env MEDIA_VERIFY_API_KEY: keeps the key out of the process list)
  --scoped-api-key KEY       a key limited to one model, to probe the out-of-scope answer (env MEDIA_VERIFY_SCOPED_API_KEY)
  --report FILE              write FILE.md and FILE.json (a .md or .json ending is replaced)
  --write-calibration FILE   write what was observed, for --calibration / MEDIA_EMULATOR_CALIBRATION
  --allow-spend N            credits the probes may charge at most (default 0: free probes only)
  --full                     price every combination of options and send the 16 MiB body
  --rps N                    requests a second to the service (default 2); a 429's Retry-After is honoured
  --calibration FILE         compare with the emulator calibrated by FILE (env MEDIA_EMULATOR_CALIBRATION)
  --catalogue FILE           compare with the emulator using this catalogue (env MEDIA_EMULATOR_CATALOGUE)
  --max-wait SECONDS         how long to poll a charged generation (default 900)

Exit codes: 0 everything probed matches, 1 something differs, 2 the run could not be made.
`;

const FLAGS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'scoped-api-key': { type: 'string' },
  report: { type: 'string' },
  'write-calibration': { type: 'string' },
  'allow-spend': { type: 'string' },
  full: { type: 'boolean' },
  rps: { type: 'string' },
  calibration: { type: 'string' },
  catalogue: { type: 'string' },
  'max-wait': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const stdio: CommandIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

const isFolder = (path: string) =>
  stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );

/** Refuses a path that names a folder (`out/`, or a folder where a file goes), and makes the folder its files go to. */
async function prepareOutput(flag: string, given: string, files: string[]): Promise<void> {
  const folders = await Promise.all(files.map(isFolder));
  if (/[/\\]$/.test(given) || folders.some(Boolean))
    throw new VerifyError(
      `${flag} ${given} is a folder; give a file name in it (--report verify/staging writes staging.md and staging.json)`,
    );
  await mkdir(dirname(files[0] as string), { recursive: true });
}

export async function runVerifyCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  io = stdio,
): Promise<number> {
  try {
    const { values: f } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false });
    if (f.help) {
      io.out(VERIFY_HELP);
      return 0;
    }
    const baseUrl = f['base-url'];
    const apiKey = f['api-key'] ?? env.MEDIA_VERIFY_API_KEY;
    if (!baseUrl || !apiKey)
      throw new VerifyError('--base-url and --api-key (or MEDIA_VERIFY_API_KEY) are required; see verify --help');
    const reportBase = f.report?.replace(/\.(md|json)$/i, '');
    const calibration = f['write-calibration'];
    // Checked and made before the first probe: a path that cannot take its file ends the run before anything is spent.
    if (f.report && reportBase) await prepareOutput('--report', f.report, [`${reportBase}.md`, `${reportBase}.json`]);
    if (calibration) await prepareOutput('--write-calibration', calibration, [calibration]);
    const report = await verifyAgainst({
      baseUrl,
      apiKey,
      scopedApiKey: f['scoped-api-key'] ?? (env.MEDIA_VERIFY_SCOPED_API_KEY || undefined),
      allowSpend: whole('--allow-spend', f['allow-spend']),
      full: f.full ?? false,
      rps: positive('--rps', f.rps),
      calibration: f.calibration ?? (env.MEDIA_EMULATOR_CALIBRATION || undefined),
      catalogue: f.catalogue ?? (env.MEDIA_EMULATOR_CATALOGUE || undefined),
      maxWaitSeconds: whole('--max-wait', f['max-wait']),
      log: (line) => io.err(`[verify] ${line}\n`),
    });
    const markdown = toMarkdown(report);
    if (reportBase) {
      await writeFileAtomic(`${reportBase}.md`, markdown);
      await writeFileAtomic(`${reportBase}.json`, `${JSON.stringify(report, null, 2)}\n`);
      io.err(`[verify] report written to ${reportBase}.md and ${reportBase}.json\n`);
    }
    if (calibration) {
      await writeFileAtomic(calibration, `${JSON.stringify(toCalibration(report), null, 2)}\n`);
      io.err(`[verify] calibration written to ${calibration}\n`);
    }
    const { summary: s } = report;
    io.out(
      `${report.clean ? 'clean' : 'differs'}: ${s.match} match, ${s.differs} differ, ${s.not_probed} not probed; at most ${report.spent} credits spent\n`,
    );
    for (const row of report.rows.filter((r) => r.status === 'differs'))
      io.out(`  differs: ${row.id} (${row.decision})\n`);
    const prices = report.prices.filter((p) => p.status === 'differs').length;
    if (prices > 0) io.out(`  differs: ${prices} price${prices === 1 ? '' : 's'}\n`);
    return report.clean ? 0 : 1;
  } catch (error) {
    if (
      error instanceof VerifyError ||
      error instanceof CalibrationError ||
      error instanceof CatalogueError ||
      error instanceof RangeError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      io.err(`media-gen-emulator verify: ${(error as Error).message}\n`);
      return 2;
    }
    if (typeof (error as NodeJS.ErrnoException).syscall === 'string') {
      io.err(`media-gen-emulator verify: cannot write a file: ${(error as Error).message}; check the path\n`);
      return 2;
    }
    // Exit 1 means "differs"; anything unexpected must not look like a finding.
    io.err(
      `media-gen-emulator verify: internal error (please report it): ${(error as Error).stack ?? String(error)}\n`,
    );
    return 2;
  }
}

function whole(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new VerifyError(`${name} must be a whole number >= 0, got "${value}"`);
  return n;
}

function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) throw new VerifyError(`${name} must be a number above 0, got "${value}"`);
  return n;
}
