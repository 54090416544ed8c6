// The export document as the plane's clients see it: the store of record's document with the plane's sections typed.
import type { StateDocument } from '../../wiring/kept-state.js';
import type { FaultSnapshot } from '../faults/fault-store.js';
import type { LinkRecord } from '../generations/output-links.js';
import type { JournalEntry } from '../journal/journal-store.js';
import type { ActiveScenario } from '../scenarios/scenario-section.js';

/** GET /_emulator/state's answer, PUT's body. Output files are not included; uploads are metadata only. */
export type EmulatorState = StateDocument<{
  faults: FaultSnapshot[];
  journal: { seq: number; entries: JournalEntry[] };
  scenario: ActiveScenario | null;
  links: LinkRecord[];
}>;
