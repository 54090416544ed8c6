// The output links the plane scripts, per generation: expired (on every read, or on the first only), missing, or expired
// up to a moment (expire-links). The core asks them through OutputAccess and keeps nothing of them.
import * as z from 'zod';
import type { OutputAccess } from '../../domain/context.js';
import { LAST_INSTANT_MS } from '../../domain/durations.js';
import type { Generation } from '../../domain/generation.js';

/** What the plane's views call a generation's links: `expired-once` turns `valid` after the first read that shows them. */
export type OutputUrls = 'valid' | NonNullable<LinkRecord['outputUrls']>;

/** One generation's scripted links, as the export document's `control.links` holds it (checked on restore). */
export const linkRecordSchema = z.strictObject({
  generationId: z.string().min(1).max(200),
  outputUrls: z.enum(['expired', 'expired-once', 'missing']).optional(),
  /** Links expiring (seconds) at or before this answer 403 url_expired; reads after it sign past it. */
  linksExpiredThrough: z
    .number()
    .min(0)
    .max(LAST_INSTANT_MS / 1000)
    .optional(),
});
export type LinkRecord = z.output<typeof linkRecordSchema>;

/**
 * Generations whose links are scripted at once: far past any test's needs. The oldest go first, so a long-running
 * emulator stays bounded; their links then answer as unscripted ones do.
 */
export const MAX_LINK_RECORDS = 1_000;

/** One per world, kept for its whole life (a reset empties it, an import refills it). */
export class OutputLinks implements OutputAccess {
  private readonly byId = new Map<string, LinkRecord>();

  urls(generationId: string): OutputUrls {
    return this.byId.get(generationId)?.outputUrls ?? 'valid';
  }

  /** Scripts a generation's links: a new outcome replaces the one before; the cut-off only moves forward. */
  script(generationId: string, change: Omit<LinkRecord, 'generationId'>) {
    const record = this.byId.get(generationId) ?? { generationId };
    if (change.outputUrls) record.outputUrls = change.outputUrls;
    if (change.linksExpiredThrough !== undefined)
      record.linksExpiredThrough = Math.max(record.linksExpiredThrough ?? 0, change.linksExpiredThrough);
    this.byId.set(generationId, record);
    for (const oldest of this.byId.keys()) {
      if (this.byId.size <= MAX_LINK_RECORDS) break;
      this.byId.delete(oldest);
    }
  }

  // The three questions of OutputAccess: with nothing scripted (the usual case) each is one size check.
  signing(g: Generation): 'expired' | number | undefined {
    const record = this.byId.size === 0 ? undefined : this.byId.get(g.id);
    if (record?.outputUrls === 'expired' || record?.outputUrls === 'expired-once') return 'expired';
    return record?.linksExpiredThrough;
  }

  refusal(g: Generation, expires: number): 'expired' | 'missing' | undefined {
    const record = this.byId.size === 0 ? undefined : this.byId.get(g.id);
    if (expires <= (record?.linksExpiredThrough ?? -1)) return 'expired';
    return record?.outputUrls === 'missing' ? 'missing' : undefined;
  }

  /** The first read that shows links expired once spends them: the next read signs valid ones. */
  shown(g: Generation) {
    const record = this.byId.size === 0 ? undefined : this.byId.get(g.id);
    if (record?.outputUrls !== 'expired-once') return;
    delete record.outputUrls;
    if (record.linksExpiredThrough === undefined) this.byId.delete(g.id);
  }

  /** The records, oldest first: the store of record copies them at once. */
  current(): LinkRecord[] {
    return [...this.byId.values()];
  }

  /** Takes a checked document's records (the newest MAX_LINK_RECORDS of them). */
  restore(records: readonly LinkRecord[]) {
    this.byId.clear();
    for (const record of records.slice(-MAX_LINK_RECORDS)) this.byId.set(record.generationId, { ...record });
  }

  clear() {
    this.byId.clear();
  }
}
