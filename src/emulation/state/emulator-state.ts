// The export document as the plane's clients see it: the store of record's document with the plane's sections typed.
import type { StateDocument } from '../../wiring/kept-state.js';
import type { FaultSnapshot } from '../faults/fault-store.js';
import type { JournalEntry } from '../journal/journal-store.js';
import type { ScenarioDefinition } from '../plane-state.js';

/** GET /_emulator/state's answer, PUT's body. Output files are not included; uploads are metadata only. */
export type EmulatorState = StateDocument<{
  faults: FaultSnapshot[];
  journal: { seq: number; entries: JournalEntry[] };
  scenario: { definition: ScenarioDefinition; loadedAt: number; ruleIds: string[]; stepsRun: number } | null;
}>;

/** Exports before the core's plans lost the plane's words wrote links expired on the first read as 'expired-once'. */
export function upgradeOnceExpiredLinks(document: { domain: unknown }): void {
  const generations = (document.domain as { generations?: unknown } | null)?.generations;
  if (!Array.isArray(generations)) return;
  for (const g of generations) {
    const plan = (g as { plan?: Record<string, unknown> } | null)?.plan;
    if (plan?.outputUrls !== 'expired-once') continue;
    plan.outputUrls = 'expired';
    plan.expiredReads = 1;
  }
}
