// Renders off the request path, at most `slots` at once; the rest wait in a FIFO backlog that holds only the job.

import { Backlog } from './backlog.js';

export interface RenderSlotsOptions<T> {
  slots: number;
  /** One job's whole render, outcome handled inside (it never rejects). */
  run(job: T): Promise<void>;
  /** Asked when a job leaves the backlog: one that ended or started meanwhile (failed, completed) is skipped. */
  stillWanted(job: T): boolean;
}

export class RenderSlots<T extends { id: string }> {
  private readonly running = new Map<string, Promise<void>>();
  private readonly backlog = new Backlog<T>();
  private readonly slots: number;
  private stopped = false;

  constructor(private readonly options: RenderSlotsOptions<T>) {
    this.slots = Math.max(1, Math.floor(options.slots));
  }

  /** Starts the job now if a slot is free, otherwise queues it behind the others. */
  request(job: T) {
    if (this.running.size < this.slots) this.start(job);
    else this.backlog.push(job);
  }

  /** Starts the job now, slot or not (a control call waits for it); the render already running when there is one. */
  start(job: T): Promise<void> {
    const existing = this.running.get(job.id);
    if (existing) return existing;
    const promise = this.options.run(job).finally(() => {
      this.running.delete(job.id);
      this.fill();
    });
    this.running.set(job.id, promise);
    return promise;
  }

  private fill() {
    while (!this.stopped && this.running.size < this.slots) {
      const job = this.backlog.shift();
      if (!job) return;
      if (this.options.stillWanted(job)) this.start(job);
    }
  }

  /** Resolves when every render in flight or waiting has finished (tests, advance, close). */
  async settle(): Promise<void> {
    // A finished render starts the next waiting one before its own promise settles, so this loop sees it.
    while (this.running.size) await Promise.allSettled([...this.running.values()]);
  }

  /** Renders running or waiting for a slot. */
  inFlight(): number {
    return this.running.size + this.backlog.size;
  }

  /** Nothing waiting starts any more; renders already running finish (settle waits for them). */
  clear() {
    this.stopped = true;
    this.backlog.clear();
  }
}
