// Export of the whole state (the service's records and the plugins' kept sections) to one JSON document, and import of it.
import { DomainError } from '../domain/errors.js';
import type { Runtime, RestoreOrigin } from '../domain/runtime.js';
import { exportDomain, importDomain, parseDomainSnapshot } from '../domain/state-snapshot.js';
import type { UploadBlobs } from '../infra/upload-blobs.js';
import { VERSION } from '../version.js';
import type { KeptState, StateDocument } from '../wiring/kept-state.js';

export const STATE_FORMAT = 'media-gen-emulator-state';
export const STATE_VERSION = 1;

/** What export and import reach: the current context, the upload bytes, and what the plugins keep. */
export interface DocumentDeps {
  runtime: Runtime;
  /** Reference-upload bytes on disk: an import writes inline ones here. */
  uploadBlobs: UploadBlobs;
  kept: KeptState;
}

/**
 * Output files are not included: after an import in another process, completed outputs answer 404 until generated
 * again. Uploads are metadata only: their bytes stay in the upload store (kept next to a state file).
 */
export function exportState({ runtime, kept }: DocumentDeps): StateDocument {
  const ctx = runtime.context();
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    emulator_version: VERSION,
    exported_at: new Date(ctx.clock.now()).toISOString(),
    domain: exportDomain(ctx),
    control: Object.fromEntries(
      kept.sections.map((s) => [s.name, s.kind === 'log' ? s.current() : structuredClone(s.current())]),
    ),
  };
}

/** The refusal of a document's envelope: its message, with the one field it names in `problems`. */
const badEnvelope = (field: string, message: string, problem: string) =>
  new DomainError('invalid_state', message, { problems: [{ field, message: problem }] });

/** What was sent, so that `"1"` (a string) does not read like the 1 it is refused for. */
function received(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null || typeof value === 'number') return String(value);
  const kind = Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  return `${String(JSON.stringify(value)).slice(0, 40)} (${kind})`;
}

function checkEnvelope(input: unknown, kept: KeptState): asserts input is StateDocument {
  const s = input as Partial<StateDocument> | null;
  if (!s || typeof s !== 'object' || s.format !== STATE_FORMAT)
    throw badEnvelope(
      'format',
      `The state must be a JSON object with "format": "${STATE_FORMAT}", as GET /_emulator/state exports it.`,
      `must be "${STATE_FORMAT}"`,
    );
  if (s.version !== STATE_VERSION)
    throw badEnvelope(
      'version',
      `State version ${received(s.version)} is not supported; this emulator reads version ${STATE_VERSION} (the number).`,
      `must be the number ${STATE_VERSION}, got ${received(s.version)}`,
    );
  if (!s.control || typeof s.control !== 'object' || Array.isArray(s.control)) {
    const message = `must be an object holding ${kept.sections.map((section) => section.name).join(', ')}`;
    throw badEnvelope('control', `control: ${message}.`, message);
  }
}

/**
 * Replaces everything with the exported state. Everything is checked before anything changes: the document's
 * envelope, each kept section, then the service's records. `origin` 'store': the store of record reloading its own
 * state (start-up, a rolled-back write), not a new state.
 */
export async function importState(deps: DocumentDeps, input: unknown, origin: RestoreOrigin = 'import'): Promise<void> {
  const { kept } = deps;
  checkEnvelope(input, kept);
  kept.upgrade?.(input);
  const installs = kept.sections.map((section) => section.prepare(input.control[section.name], origin));
  const domain = parseDomainSnapshot(input.domain, origin);
  // Uploads exported with their bytes inline (older exports) go to the upload store; newer ones reference it.
  for (const u of domain.uploads)
    if (u.data !== undefined) await deps.uploadBlobs.put(u.id, Buffer.from(u.data, 'base64'));
  // The sections go in with the records, in the swap's synchronous step: a commit made while the old state winds
  // down (restore awaits its renders) must write the new records with the new sections, never with the old ones.
  await deps.runtime.restore((ctx) => {
    importDomain(ctx, domain);
    for (const install of installs) install();
  }, origin);
}
