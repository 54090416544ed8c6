// Records every exchange of the public API and every download in the journal when it ends: answered, faulted, dropped or abandoned.
import { utf8Length } from '../../http/answers.js';
import { type Exchange, FileBody, type Outcome, type ServiceResponse } from '../../http/exchange.js';
import type { ExchangeHooks } from '../../http/pipeline.js';
import { peekKey } from '../faults/fault-facts.js';
import { isWatched, noteOf, openNote, type PlaneNote } from '../plane-note.js';
import { BODY_CAP, type CapturedBody, captureBody, JOURNAL_TEXT_CAP } from './journal-store.js';

const cut = (text: string) => (text.length > JOURNAL_TEXT_CAP ? text.slice(0, JOURNAL_TEXT_CAP) : text);
const cutOrNull = (text: string | null | undefined) => (text === null || text === undefined ? null : cut(text));

/** The body as the handler read it: JSON and raw bytes as text, an urlencoded form as JSON, multipart as a note. */
function requestBody(x: Exchange): CapturedBody | null {
  const type = cutOrNull(x.header('content-type'));
  const length = Number(x.header('content-length') ?? 0);
  if (/^multipart\//i.test(type ?? ''))
    return { contentType: type, bytes: length, text: '(multipart form: files are not kept)', truncated: false };
  if (x.bytes) return x.bytes.length ? captureBody(x.bytes, type) : null;
  const fields = x.formRead?.type === 'urlencoded' ? x.formRead.fields : undefined;
  if (!fields || (Object.keys(fields).length === 0 && !length)) return null;
  return captureBody(JSON.stringify(fields), type);
}

/** The head of the answer as it was produced; a file's type and size only, never its bytes. */
function responseBody(response: ServiceResponse | undefined, download: boolean): CapturedBody | null {
  const body = response?.body;
  if (body === undefined) return null;
  const contentType = cutOrNull(response?.headers['Content-Type']);
  // A file, on disk or (a host that keeps outputs in memory) as bytes: its type and size.
  if (body instanceof FileBody || (download && body instanceof Uint8Array)) {
    const size = body instanceof FileBody ? body.size : body.length;
    return { contentType, bytes: size, text: '', truncated: size > 0 };
  }
  if (body.length === 0) return null;
  if (typeof body !== 'string') return captureBody(body, contentType);
  // A JSON answer can be far longer than what is kept: only its head is encoded.
  const head = body.length > BODY_CAP + 1 ? body.slice(0, BODY_CAP + 1) : body;
  const captured = captureBody(head, contentType);
  return head === body ? captured : { ...captured, bytes: utf8Length(body), truncated: true };
}

function record(x: Exchange, note: PlaneNote, outcome: Outcome) {
  note.state.journal.record({
    at: note.at,
    method: x.request.method,
    path: cut(x.request.path),
    keyId: (x.apiKey ?? peekKey(note.ctx, x.header('authorization')))?.id ?? null,
    idempotencyKey: cutOrNull(x.request.firstHeader('idempotency-key')),
    // No status line went out (reset, empty response, hang, client gone): 0, as browsers report a network error.
    status: outcome.status,
    latencyMs: Math.round((performance.now() - x.startedAt) * 10) / 10,
    faultId: note.faultId ?? x.planAdjustment?.by ?? null,
    faultReason: cutOrNull(note.faultId ? note.faultReason : x.planAdjustment?.reason),
    query: cut(x.request.rawQuery),
    // A download names its generation in its path, whether or not it was served.
    generationId: x.generationId ?? (x.dispatch.kind === 'download' ? x.dispatch.params.generation_id : null) ?? null,
    requestBody: requestBody(x),
    responseBody: responseBody(outcome.response, x.dispatch.kind === 'download'),
  });
}

/** The journal's part in every exchange: it notes each watched one on arrival, and records it once it is over. */
export const journalHooks: ExchangeHooks = {
  before(x) {
    if (isWatched(x)) openNote(x);
    return undefined;
  },
  after(x, outcome) {
    const note = noteOf(x);
    if (note) record(x, note, outcome);
  },
};
