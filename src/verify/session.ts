// Records each probe's live answer, then asks the reference emulator the same and turns both into check results.
import { type Comparison, same, summarise } from './compare.js';
import type { CheckSpec } from './free-probes.js';
import type { ProbeAnswer, ProbeRequest, Send } from './http-probe.js';
import type { CheckResult } from './report-types.js';

interface Pending {
  spec: CheckSpec;
  live: ProbeAnswer;
}

export class Session {
  private readonly pending: Pending[] = [];
  readonly results: CheckResult[] = [];
  /** Credits the live probes may have charged at most. */
  spent = 0;

  constructor(
    readonly live: Send,
    private readonly budget: number,
  ) {}

  async probe(spec: CheckSpec): Promise<ProbeAnswer> {
    const live = await this.live(spec.request);
    this.pending.push({ spec, live });
    return live;
  }

  /** A request that may charge up to `ceiling` credits runs only while the budget covers it; false when it does not. */
  canSpend(ceiling: number): boolean {
    return this.spent + ceiling <= this.budget;
  }

  /** Sends a request that may charge, counting its whole ceiling first; compared by the caller, not replayed. */
  async spend(request: ProbeRequest, ceiling: number): Promise<ProbeAnswer> {
    if (!this.canSpend(ceiling)) throw new RangeError('this probe would exceed the spend budget');
    this.spent += ceiling;
    return this.live(request);
  }

  skip(id: string, label: string, reason: string): void {
    this.results.push({ id, label, status: 'not probed', reason });
  }

  record(result: CheckResult): void {
    this.results.push(result);
  }

  /** Replays every recorded request on the reference, in the order the service saw them. */
  async compareWith(reference: Send): Promise<void> {
    for (const p of this.pending) {
      const answer = await reference(p.spec.request);
      this.results.push(checkResult(p.spec.id, p.spec.label, p.spec.how, p.live, answer));
    }
    this.pending.length = 0;
  }
}

export function checkResult(
  id: string,
  label: string,
  how: Comparison,
  live: ProbeAnswer,
  emulator: ProbeAnswer,
): CheckResult {
  // A request the service did not answer was sent, so it counts: an emulator that answers differs from it.
  return {
    id,
    label,
    status: same(live, emulator, how) ? 'match' : 'differs',
    live: summarise(live, how),
    emulator: summarise(emulator, how),
  };
}
