// Export of the whole emulator state (domain and control plane) to JSON, and import of it back.
import { DomainError } from '../../domain/errors.js';
import type { RestoreOrigin } from '../../domain/runtime.js';
import { FaultStore, type FaultSnapshot } from '../faults/fault-store.js';
import type { JournalEntry } from '../journal/journal-store.js';
import type { ScenarioDefinition } from '../scenarios/scenario-schema.js';
import { parseScenario } from '../scenarios/scenario-parse.js';
import {
  exportDomain,
  importDomain,
  MAX_COUNTER,
  parseDomainSnapshot,
  type DomainSnapshot,
} from '../../domain/state-snapshot.js';
import { VERSION } from '../../version.js';
import { contextOf, type ControlDeps } from '../plane-state.js';

export const STATE_FORMAT = 'media-gen-emulator-state';
export const STATE_VERSION = 1;

export interface EmulatorState {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  emulator_version: string;
  exported_at: string;
  domain: DomainSnapshot;
  control: {
    faults: FaultSnapshot[];
    journal: { seq: number; entries: JournalEntry[] };
    scenario: { definition: ScenarioDefinition; loadedAt: number; ruleIds: string[]; stepsRun: number } | null;
  };
}

/**
 * Output files are not included: after an import in another process, completed outputs answer 404 until generated
 * again. Uploads are metadata only: their bytes stay in the upload store (kept next to a state file).
 */
export function exportState(deps: ControlDeps): EmulatorState {
  const { state } = deps;
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    emulator_version: VERSION,
    exported_at: new Date(contextOf(deps).clock.now()).toISOString(),
    domain: exportDomain(contextOf(deps)),
    control: {
      faults: state.faults.snapshot(),
      journal: state.journal.snapshot(),
      scenario: state.scenario && structuredClone(state.scenario),
    },
  };
}

function checkEnvelope(input: unknown): asserts input is EmulatorState {
  const s = input as Partial<EmulatorState> | null;
  if (!s || typeof s !== 'object' || s.format !== STATE_FORMAT)
    throw new DomainError(
      'invalid_state',
      `The state must be a JSON object with "format": "${STATE_FORMAT}", as GET /_emulator/state exports it.`,
    );
  if (s.version !== STATE_VERSION)
    throw new DomainError(
      'invalid_state',
      `State version ${String(s.version)} is not supported; this emulator reads version ${STATE_VERSION}.`,
    );
  if (!s.control || !Array.isArray(s.control.faults) || !s.control.journal || !Array.isArray(s.control.journal.entries))
    throw new DomainError(
      'invalid_state',
      'control: must hold faults (array), journal ({ seq, entries }) and scenario (object or null).',
    );
  // The journal numbers new entries from its seq: past 2^31 they would stop being distinct.
  const { journal } = s.control;
  if (!Number.isInteger(journal.seq) || journal.seq < 0 || journal.seq > MAX_COUNTER)
    throw new DomainError('invalid_state', `control.journal.seq: must be a whole number from 0 to ${MAX_COUNTER}.`);
  journal.entries.forEach((e, i) => {
    if (!Number.isInteger(e?.id) || e.id < 1 || e.id > MAX_COUNTER)
      throw new DomainError(
        'invalid_state',
        `control.journal.entries[${i}].id: must be a whole number from 1 to ${MAX_COUNTER}.`,
      );
  });
}

/** Exports before the core's plans lost the plane's words wrote links expired on the first read as 'expired-once'. */
function upgradeOnceExpiredLinks(domain: unknown): void {
  const generations = (domain as { generations?: unknown } | null)?.generations;
  if (!Array.isArray(generations)) return;
  for (const g of generations) {
    const plan = (g as { plan?: Record<string, unknown> } | null)?.plan;
    if (plan?.outputUrls !== 'expired-once') continue;
    plan.outputUrls = 'expired';
    plan.expiredReads = 1;
  }
}

/**
 * Replaces everything with the exported state. Everything is checked before anything changes. `origin` 'store': the
 * store of record reloading its own state (start-up, a rolled-back write), not a new state.
 */
export async function importState(deps: ControlDeps, input: unknown, origin: RestoreOrigin = 'import'): Promise<void> {
  checkEnvelope(input);
  upgradeOnceExpiredLinks(input.domain);
  const domain = parseDomainSnapshot(input.domain);
  const scenario = input.control.scenario
    ? { ...input.control.scenario, definition: parseScenario(input.control.scenario.definition, '(imported)') }
    : null;
  const { state } = deps;
  // Validate the rules on a scratch store first, so a bad rule cannot leave half a state behind.
  new FaultStore().restore(input.control.faults);
  // Uploads exported with their bytes inline (older exports) go to the upload store; newer ones reference it.
  for (const u of domain.uploads)
    if (u.data !== undefined) await deps.uploadBlobs.put(u.id, Buffer.from(u.data, 'base64'));
  await deps.runtime.restore((ctx) => importDomain(ctx, domain), origin);
  state.clear();
  state.faults.restore(input.control.faults);
  state.journal.restore(input.control.journal);
  state.scenario = scenario;
}
