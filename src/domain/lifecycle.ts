// Moves generations pending -> running -> completed | failed on the emulator clock, renders off the request path.
import type { Clock } from '../infra/clock.js';
import type { Scheduler } from '../infra/scheduler.js';
import { DomainError } from './errors.js';
import type { RefundRequest } from './failures.js';
import {
  isFinal,
  type Generation,
  type GenerationError,
  type GenerationStatus,
  type OutputFile,
  type RefundPolicy,
} from './generation.js';
import { bookRefund, failureRefund, finalRefund, operatorFailure } from './generation-refunds.js';
import type { Ledger } from './ledger.js';
import { firstMoveDueAt, MoveTimers, type WaitingSource } from './move-timers.js';
import { RenderSlots } from './render-slots.js';

/** Produces every output file of a generation; the wiring backs it with the renderer. */
export type RenderPort = (generation: Generation) => Promise<OutputFile[]>;

export type MoveWatcher = (generationId: string, from: GenerationStatus, to: GenerationStatus) => void;

export interface LifecycleDeps {
  clock: Clock;
  scheduler: Scheduler;
  ledger: Ledger;
  render: RenderPort;
  /**
   * How many generations render at once; the rest wait in a backlog that holds only the generation itself, so a
   * flood of submissions costs no pending promise chain per job. Default 4.
   */
  renderSlots?: number;
  log?: (line: string) => void;
  /** Told of every move, before the members that go with it are set in the same step: the store of record writes it. */
  moved?: (generation: Generation) => void;
  /**
   * The generation now, when its timer fires: a waiting generation is held by id only, so the heap keeps no record
   * per scheduled move. Without it the lifecycle keeps every generation it began.
   */
  find?: (id: string) => Generation | undefined;
  /** See MoveTimerDeps: given, the store of record keeps the waiting generations' first moves. */
  resident?: (id: string) => Generation | undefined;
  lastSeq?: () => number;
}

export class Lifecycle {
  private readonly timers: MoveTimers;
  private readonly renders: RenderSlots<Generation>;
  private readonly rendered = new Map<string, OutputFile[]>();
  private readonly timerDone = new Set<string>();
  /** Without `find`: the generations begun, by id. */
  private readonly known = new Map<string, Generation>();
  private readonly moveWatchers = new Set<MoveWatcher>();
  /** Set by clear(): a render that ends afterwards (aborted by shutdown, or outliving a reset) changes nothing. */
  private stopped = false;

  constructor(private readonly deps: LifecycleDeps) {
    this.renders = new RenderSlots({
      slots: deps.renderSlots ?? 4,
      run: (g) => this.render(g),
      stillWanted: (g) => g.status === 'running' && !this.rendered.has(g.id),
    });
    this.timers = new MoveTimers(deps);
  }

  /**
   * Called once, right after acceptance: schedules the first move. The heap holds it until the store of record has
   * the generation (committed()), which from then on keeps it in its due-time index.
   */
  begin(g: Generation) {
    if (!this.deps.find) this.known.set(g.id, g);
    this.timers.schedule(g, firstMoveDueAt(g), this.firstMoveDue, g.seq);
  }

  /** The store of record keeps waiting generations' first moves from now on (see MoveTimers.useStore). */
  useStore(source: WaitingSource, uncommitted: ReadonlySet<string>) {
    if (this.deps.find) this.timers.useStore(source, uncommitted, this.firstMoveDue);
  }

  /** The store of record now holds these generations. */
  committed(generations: Iterable<Generation>) {
    this.timers.committed(generations);
  }

  // One function per kind of move, shared by every task: a task holds the generation's id, not a closure over it.
  // Each checks the generation is still where its move starts: a stored first move can be behind the heap.
  private readonly firstMoveDue = (id: string) =>
    this.fire(id, 'pending', (g) => {
      const fail = g.plan.fail;
      if (fail?.at === 'pending') this.fail(g, fail, fail.refund);
      else this.toRunning(g);
    });
  private readonly failRunningDue = (id: string) =>
    this.fire(id, 'running', (g) => {
      const fail = g.plan.fail;
      if (fail) this.fail(g, fail, fail.refund);
    });
  private readonly finishDue = (id: string) =>
    this.fire(id, 'running', (g) => {
      this.timerDone.add(g.id);
      this.maybeComplete(g);
    });

  private fire(id: string, from: GenerationStatus, run: (current: Generation) => void) {
    this.timers.fired(id);
    const current = this.deps.find ? this.deps.find(id) : this.known.get(id);
    if (current?.status === from) run(current);
  }

  /**
   * Tells `watch` of every status change from now until the returned function is called: a caller learns what an
   * advance moved without reading every waiting generation before and after it.
   */
  watchMoves(watch: MoveWatcher): () => void {
    this.moveWatchers.add(watch);
    return () => this.moveWatchers.delete(watch);
  }

  /** Every caller has already checked the status it moves from (fire, maybeComplete, assertCanFail, completeNow). */
  private move(g: Generation, to: GenerationStatus) {
    const from = g.status;
    g.status = to;
    this.deps.moved?.(g);
    for (const watch of this.moveWatchers) watch(g.id, from, to);
  }

  /** Only firstMoveDue calls it, for a generation fire() found still pending. */
  private toRunning(g: Generation) {
    this.move(g, 'running');
    g.startedAt = this.deps.clock.now();
    const fail = g.plan.fail;
    if (fail?.at === 'running') return this.timers.schedule(g, g.startedAt + fail.afterMs, this.failRunningDue);
    if (g.plan.stall) return;
    this.renders.request(g);
    this.timers.schedule(g, g.startedAt + g.plan.runningMs, this.finishDue);
  }

  /** One generation's render and what its outcome does: complete it once its timer is done too, or fail it. */
  private render(g: Generation): Promise<void> {
    return this.deps.render(g).then(
      (outputs) => {
        if (this.stopped || isFinal(g.status)) return;
        this.rendered.set(g.id, outputs);
        this.maybeComplete(g);
      },
      (error: unknown) => {
        if (!this.stopped)
          this.deps.log?.(`render failed for ${g.id}: ${error instanceof Error ? error.message : String(error)}`);
        if (!this.stopped && !isFinal(g.status))
          this.fail(
            g,
            {
              code: 'render_failed',
              message: 'The output could not be produced; the charge was refunded. Retry with a new Idempotency-Key.',
            },
            { kind: 'full' },
          );
      },
    );
  }

  private maybeComplete(g: Generation) {
    const outputs = this.rendered.get(g.id);
    if (g.status !== 'running' || !this.timerDone.has(g.id) || !outputs) return;
    g.outputs = outputs;
    this.move(g, 'completed');
    g.completedAt = this.deps.clock.now();
    this.forget(g.id);
  }

  private forget(id: string) {
    this.known.delete(id);
    this.timers.cancel(id);
    this.rendered.delete(id);
    this.timerDone.delete(id);
  }

  /** Fails a pending or running generation now, refunding as the policy says. */
  fail(g: Generation, error: GenerationError, refund: RefundPolicy) {
    this.assertCanFail(g);
    const refundNow = failureRefund(this.deps.ledger, g, refund);
    this.move(g, 'failed');
    g.completedAt = this.deps.clock.now();
    g.error = { code: error.code, message: error.message };
    this.forget(g.id);
    if (refundNow) bookRefund(this.deps.ledger, g, refundNow, this.deps.clock.now());
  }

  /** Fails a pending or running generation at an operator's request (see operatorFailure). */
  failNow(g: Generation, request: { code: string; message?: string; refund: RefundRequest }) {
    this.assertCanFail(g);
    const { error, refund } = operatorFailure(this.deps.ledger, g, request);
    this.fail(g, error, refund);
  }

  private assertCanFail(g: Generation) {
    if (isFinal(g.status))
      throw new DomainError(
        'generation_final',
        `Generation ${g.id} is already ${g.status}; only pending or running generations can fail.`,
      );
  }

  /** Completes a pending or running generation as soon as its outputs exist, ignoring its timers and plan. */
  async completeNow(g: Generation): Promise<void> {
    if (isFinal(g.status)) throw new DomainError('generation_final', `Generation ${g.id} is already ${g.status}.`);
    if (g.status === 'pending') {
      this.move(g, 'running');
      g.startedAt = this.deps.clock.now();
    }
    this.timerDone.add(g.id);
    await (this.rendered.has(g.id) ? undefined : this.renders.start(g));
    this.maybeComplete(g);
  }

  /** Refunds a completed or failed generation: what is left of the charge (full) or a part of it, never more. */
  refund(g: Generation, policy: Exclude<RefundPolicy, { kind: 'none' }>): number {
    if (!isFinal(g.status))
      throw new DomainError(
        'generation_not_final',
        `Generation ${g.id} is still ${g.status}; refund it once it has completed or failed, or fail it with a refund policy.`,
      );
    const amount = finalRefund(this.deps.ledger, g, policy);
    bookRefund(this.deps.ledger, g, amount, this.deps.clock.now());
    return amount;
  }

  /** Resolves when every render in flight or waiting has finished (tests, advance, close). */
  settle(): Promise<void> {
    return this.renders.settle();
  }

  /** Renders running or waiting for a slot. */
  rendersInFlight(): number {
    return this.renders.inFlight();
  }

  clear() {
    this.stopped = true;
    this.renders.clear();
    for (const id of this.timers.ids()) this.forget(id);
  }
}
