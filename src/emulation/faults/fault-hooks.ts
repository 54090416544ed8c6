// Fault rules in the pipeline: the first matching HTTP rule decides how a public or download exchange goes.
import type { Exchange } from '../../http/exchange.js';
import type { ExchangeHooks, Intervention } from '../../http/pipeline.js';
import { isWatched, noteOf, openNote, type PlaneNote } from '../plane-note.js';
import { bodyFacts, exchangeFacts } from './fault-facts.js';
import type { HttpFaultAction } from './fault-schema.js';
import { httpIntervention } from './http-actions.js';

/**
 * After the journal's hook (it opens the note this one writes the rule into). With no rules (the usual case) it only
 * looks at their count. A rule that needs the JSON body reads it through the exchange, which keeps it for the handler:
 * the body is parsed once. Only an authenticated request is read ahead, so a bad key still gets its 401 first.
 */
export const faultHooks: ExchangeHooks = {
  before(x) {
    if (!isWatched(x)) return undefined;
    const note = noteOf(x) ?? openNote(x);
    return note.state.faults.isEmpty ? undefined : decide(x, note);
  },
};

async function decide(x: Exchange, note: PlaneNote): Promise<Intervention | undefined> {
  const { faults } = note.state;
  const ctx = x.world.runtime.context();
  const facts = exchangeFacts(x, ctx);
  if (facts.keyId !== undefined && x.dispatch.route?.body?.kind === 'json' && faults.needsBody(facts)) {
    try {
      const read = await x.json();
      if (read.kind === 'value') Object.assign(facts, bodyFacts(read.value));
    } catch {
      // Unreadable (not UTF-8, too deep, too large): it matches no body rule, and the handler answers it as it would.
    }
  }
  const random = ctx.random.next;
  const rule = faults.match('http', facts, random);
  if (!rule) return undefined;
  note.faultId = rule.id;
  note.faultReason = faults.explain(rule, facts);
  x.addHeader('X-Emulator-Fault', rule.id);
  return httpIntervention(rule.parsed.action as HttpFaultAction, random);
}
