// Judges one pair of answers and names the mismatch class, so thousands of failures read as a short table.
import type { RawAnswer } from './exchange.js';

export type Verdict = { ok: true } | { ok: false; mismatch: string };

interface Item {
  type?: string;
  loc?: unknown[];
}

function detailOf(body: Buffer): Item[] | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { detail?: unknown };
    return Array.isArray(parsed.detail) ? (parsed.detail as Item[]) : undefined;
  } catch {
    return undefined;
  }
}

/** 422 item types the emulator raises after schema validation, from the service's own rules. */
const BUSINESS_422 = new Set(['cursor_invalid']);

const locPattern = (loc: unknown[] = []) => loc.map((p) => (typeof p === 'number' ? '#' : p)).join('.');

/**
 * The reference is authoritative for validation: 422 and 500 bodies must match byte for byte. Any other reference
 * answer means "valid input": the emulator may then answer with its own business rules (404 unknown model, 402,
 * model-level 422 items typed `model_*`), never with a schema 422 or a 5xx. A reference 400 (unreadable body) must
 * be a 400 from the emulator too, in the service's own error envelope.
 */
export function judge(endpoint: string, ref: RawAnswer, emu: RawAnswer): Verdict {
  const fail = (what: string): Verdict => ({ ok: false, mismatch: `${endpoint}: ${what}` });
  if (ref.status === 422 || ref.status >= 500) {
    if (emu.status !== ref.status) return fail(`status ${ref.status} expected, got ${emu.status}`);
    if (emu.contentType !== ref.contentType)
      return fail(`content-type ${ref.contentType} expected, got ${emu.contentType}`);
    if (emu.body.equals(ref.body)) return { ok: true };
    const want = detailOf(ref.body);
    const got = detailOf(emu.body);
    if (!want || !got) return fail(`${ref.status} body differs`);
    const n = Math.max(want.length, got.length);
    for (let i = 0; i < n; i++) {
      const a = want[i];
      const b = got[i];
      if (!a || !b) return fail(`${want.length} items expected, got ${got.length} (${a?.type ?? b?.type})`);
      if (a.type !== b.type || locPattern(a.loc) !== locPattern(b.loc))
        return fail(`item ${a.type} at ${locPattern(a.loc)} expected, got ${b.type} at ${locPattern(b.loc)}`);
      if (JSON.stringify(a) !== JSON.stringify(b)) {
        const members = Object.keys(a).filter(
          (k) =>
            JSON.stringify((a as Record<string, unknown>)[k]) !== JSON.stringify((b as Record<string, unknown>)[k]),
        );
        return fail(`${a.type} at ${locPattern(a.loc)}: ${members.join(', ') || 'member order'} differ`);
      }
    }
    return fail('same items, different bytes (number spelling or key order)');
  }
  if (ref.status === 400) return emu.status === 400 ? { ok: true } : fail(`status 400 expected, got ${emu.status}`);
  // The reference read the body: the emulator must read it too, not refuse it as unreadable.
  if (ref.status < 300 && emu.status === 400) return fail(`readable input refused with 400`);
  if (emu.status >= 500) return fail(`valid input answered ${emu.status}`);
  if (emu.status === 422) {
    const items = detailOf(emu.body) ?? [];
    const schema = items.find((i) => !String(i.type).startsWith('model_') && !BUSINESS_422.has(String(i.type)));
    if (schema) return fail(`valid input refused: ${schema.type} at ${locPattern(schema.loc)}`);
  }
  return { ok: true };
}
