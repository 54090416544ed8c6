// The scripted output links as a section of the store of record, and the upgrade of documents that kept them on generations.
import * as z from 'zod';
import { notAnExport } from '../../domain/state-problems.js';
import { thousands } from '../../domain/thousands.js';
import { fieldProblems } from '../../domain/zod-issues.js';
import type { RestoreOrigin } from '../../domain/runtime.js';
import type { Install, KeptValue } from '../../wiring/kept-state.js';
import { PlaneSection } from '../plane-state.js';
import { type LinkRecord, linkRecordSchema, MAX_LINK_RECORDS } from './output-links.js';

/** Checked whole; an import brings at most MAX_LINK_RECORDS (the store's own may hold more: its newest are kept). */
function parseLinks(value: unknown, origin: string): LinkRecord[] {
  const parsed = z.array(linkRecordSchema).safeParse(value);
  if (!parsed.success) throw notAnExport(fieldProblems(parsed.error.issues, ['control', 'links']));
  if (origin === 'import' && parsed.data.length > MAX_LINK_RECORDS)
    throw notAnExport([
      { field: 'control.links', message: `holds ${parsed.data.length}; at most ${thousands(MAX_LINK_RECORDS)}` },
    ]);
  const seen = new Set<string>();
  parsed.data.forEach(({ generationId }, i) => {
    if (seen.has(generationId))
      throw notAnExport([{ field: `control.links[${i}].generationId`, message: `'${generationId}' is listed twice` }]);
    seen.add(generationId);
  });
  return parsed.data;
}

export class LinksSection extends PlaneSection implements KeptValue {
  readonly kind = 'value';
  readonly name = 'links';
  readonly empty = [];

  current() {
    return this.state.links.current();
  }

  prepare(value: unknown, origin: RestoreOrigin): Install {
    const records = parseLinks(value ?? [], origin);
    return () => this.state.links.restore(records);
  }
}

/**
 * Documents and stores written before the plane kept its links (1e8f3dd and earlier) held them on each generation:
 * `plan.outputUrls` ('expired', 'missing', before that 'expired-once'), `plan.expiredReads` (expired for that many
 * reads: 1 is all the expired_urls action's `once` ever set) and `linksExpiredThrough`. They become `control.links`.
 */
export function upgradeLinks(document: { domain: unknown; control: Record<string, unknown> }): void {
  const generations = (document.domain as { generations?: unknown } | null)?.generations;
  if (!Array.isArray(generations)) return;
  const records: Record<string, unknown>[] = [];
  for (const g of generations as (Record<string, unknown> | null)[]) {
    const plan = g?.plan as Record<string, unknown> | undefined;
    if (!g || !plan || typeof plan !== 'object') continue;
    const { outputUrls: urls, expiredReads: reads } = plan;
    const through = g.linksExpiredThrough;
    delete plan.outputUrls;
    delete plan.expiredReads;
    delete g.linksExpiredThrough;
    const once = urls === 'expired-once' || (urls === 'expired' && reads !== undefined);
    const outputUrls = once ? 'expired-once' : urls === 'expired' || urls === 'missing' ? urls : undefined;
    if (outputUrls === undefined && through === undefined) continue;
    records.push({ generationId: g.id, outputUrls, linksExpiredThrough: through });
  }
  const kept = Array.isArray(document.control.links) ? document.control.links : [];
  if (records.length > 0) document.control.links = [...kept, ...records];
}
