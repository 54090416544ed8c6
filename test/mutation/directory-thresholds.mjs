// A Stryker reporter (stryker.config.mjs): prints the score of each file and of src/domain/ and src/store/, leaving out
// the equivalent mutants (test/mutation/equivalent-mutants.mjs), and fails the run (exit code 1) when a directory is
// under its floor. Stryker's own table counts those mutants as survivors, and its thresholds.break is one figure for
// every file together.
import { EQUIVALENT_MUTANTS } from './equivalent-mutants.mjs';

const FLOORS = [
  ['src/domain/', 90],
  ['src/store/', 85],
];
// Stryker's mutation score: detected / (detected + undetected); ignored mutants and runtime or compile errors count in
// neither.
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** The text a mutant replaces (its location counts lines and columns from 1). */
function originalText(source, { start, end }) {
  const lines = source.split('\n');
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [
    lines[start.line - 1].slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1].slice(0, end.column - 1),
  ].join('\n');
}

const normalise = (code) => code.replace(/\s+/g, ' ').trim();

class DirectoryThresholds {
  static inject = ['logger'];

  constructor(logger) {
    this.logger = logger;
  }

  onMutationTestReportReady(report) {
    const used = new Set();
    /** @type {Map<string, { detected: number; undetected: number; equivalent: number }>} */
    const perFile = new Map();
    for (const [name, { source, mutants }] of Object.entries(report.files)) {
      const file = name.replaceAll('\\', '/');
      const counts = { detected: 0, undetected: 0, equivalent: 0 };
      for (const mutant of mutants) {
        if (DETECTED.has(mutant.status)) counts.detected += 1;
        else if (UNDETECTED.has(mutant.status)) {
          const original = normalise(originalText(source, mutant.location));
          const line = normalise(source.split('\n')[mutant.location.start.line - 1]);
          const entry = EQUIVALENT_MUTANTS.find(
            (e) =>
              file.endsWith(e.file) &&
              e.mutator === mutant.mutatorName &&
              normalise(e.original) === original &&
              normalise(e.replacement) === normalise(mutant.replacement ?? '') &&
              (e.line === undefined || normalise(e.line) === line),
          );
          if (entry) {
            used.add(entry);
            counts.equivalent += 1;
          } else counts.undetected += 1;
        }
      }
      perFile.set(file, counts);
    }
    const score = ({ detected, undetected }) => (100 * detected) / (detected + undetected);
    for (const [file, counts] of [...perFile].sort(([a], [b]) => a.localeCompare(b))) {
      if (counts.detected + counts.undetected === 0) continue;
      this.logger.info(
        `${file}: ${score(counts).toFixed(2)} (${counts.detected} detected, ${counts.undetected} undetected, ` +
          `${counts.equivalent} equivalent)`,
      );
    }
    for (const entry of EQUIVALENT_MUTANTS) {
      if (!used.has(entry) && [...perFile.keys()].some((file) => file.endsWith(entry.file)))
        this.logger.warn(
          `equivalent-mutants.mjs: no surviving mutant of ${entry.file} replaces \`${entry.original}\` with ` +
            `\`${entry.replacement}\` (${entry.mutator}) any more: remove the entry, or correct it`,
        );
    }
    for (const [directory, floor] of FLOORS) {
      const total = { detected: 0, undetected: 0 };
      for (const [file, counts] of perFile) {
        if (!file.includes(directory)) continue;
        total.detected += counts.detected;
        total.undetected += counts.undetected;
      }
      // A run over some files only (`--mutate`, CI's scope) may hold none of a directory: nothing to hold to its floor.
      if (total.detected + total.undetected === 0) {
        this.logger.info(`${directory}: not measured in this report`);
        continue;
      }
      const line = `${directory}: mutation score ${score(total).toFixed(2)} (${total.detected} of ${total.detected + total.undetected} detected, equivalent mutants left out), floor ${floor}`;
      if (score(total) >= floor) this.logger.info(line);
      else {
        this.logger.error(
          `${line}: under the floor, setting exit code to 1 (kill the survivors or list them as equivalent)`,
        );
        process.exitCode = 1;
      }
    }
  }
}

export const strykerPlugins = [
  { kind: 'Reporter', name: 'directory-thresholds', injectableClass: DirectoryThresholds },
];
