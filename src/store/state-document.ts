// Export of the whole state (the service's records and the plugins' kept sections) to one JSON document, and import of it.
import { DomainError } from '../domain/errors.js';
import type { Runtime, RestoreOrigin } from '../domain/runtime.js';
import { type DomainSnapshot, exportDomain, importDomain, parseDomainSnapshot } from '../domain/state-snapshot.js';
import { invalidState } from '../domain/state-problems.js';
import { base64ToBytes } from '../infra/byte-text.js';
import type { UploadBlobs } from '../infra/upload-blobs.js';
import { VERSION } from '../version.js';
import type { KeptState, StateDocument } from '../wiring/kept-state.js';

export const STATE_FORMAT = 'media-gen-emulator-state';
export const STATE_VERSION = 1;

/** What export and import reach: the current context, the upload bytes, and what the plugins keep. */
export interface DocumentDeps {
  runtime: Runtime;
  /** Reference-upload bytes (on disk, or in memory in a browser): an import writes inline ones here. */
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
 * Uploads exported with their bytes inline (older exports) go to the upload store; newer ones reference it. Their
 * total is checked against the store's cap before any is written, and a write that fails takes back the files it added before
 * it, so a refused import leaves the upload store as it was.
 */
async function writeInlineUploads(blobs: UploadBlobs, uploads: DomainSnapshot['uploads']) {
  const inline = uploads.flatMap((u, i) =>
    u.data === undefined ? [] : [{ i, id: u.id, data: base64ToBytes(u.data) }],
  );
  if (inline.length === 0) return;
  const after = blobs.bytesWith(inline.map((u) => ({ id: u.id, size: u.data.length })));
  if (after > blobs.maxBytes)
    throw invalidState('The state does not fit the upload store', [
      {
        field: `domain.uploads[${inline[inline.length - 1].i}].data`,
        message: `the inline uploads would fill the upload store to ${after} bytes (each counted in whole 4 KiB blocks), past its cap of ${blobs.maxBytes}; start the emulator with a larger --max-upload-store-bytes, reset it (POST /_emulator/reset), or import fewer uploads`,
      },
    ]);
  const written: string[] = [];
  try {
    for (const u of inline) {
      const fresh = !blobs.has(u.id);
      await blobs.put(u.id, u.data);
      if (fresh) written.push(u.id);
    }
  } catch (error) {
    for (const id of written) await blobs.remove(id);
    throw error;
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
  await writeInlineUploads(deps.uploadBlobs, domain.uploads);
  // The sections go in with the records, in the swap's synchronous step: a commit made while the old state winds
  // down (restore awaits its renders) must write the new records with the new sections, never with the old ones.
  await deps.runtime.restore((ctx) => {
    importDomain(ctx, domain);
    for (const install of installs) install();
  }, origin);
}
