// What the plane notes of one exchange of the public API or a download: when it arrived, and the fault rule that acted.
import type { DomainContext } from '../domain/context.js';
import { type Exchange, exchangeSlot } from '../http/exchange.js';
import { type ControlState, PLANE_STATE } from './plane-state.js';

/** One class for every note: one shape, no closure per request. */
export class PlaneNote {
  /** The HTTP rule that acted on the exchange; a generation rule comes back through the exchange's planAdjustment. */
  faultId: string | null = null;
  /** Why that rule matched, for the request inspector. */
  faultReason: string | null = null;

  constructor(
    readonly state: ControlState,
    readonly ctx: DomainContext,
    /** Emulator clock at arrival (ms). */
    readonly at: number,
  ) {}
}

const slot = exchangeSlot<PlaneNote>('plane note');

/** The exchanges the plane records and may fault: the public API's (its 404s and 405s too) and downloads. */
export const isWatched = (x: Exchange) => x.dispatch.kind === 'public' || x.dispatch.kind === 'download';

/** Opens the note of a watched exchange (the journal's first hook does, on arrival). */
export function openNote(x: Exchange): PlaneNote {
  const ctx = x.world.runtime.context();
  const note = new PlaneNote(x.world.part(PLANE_STATE), ctx, ctx.clock.now());
  slot.set(x, note);
  return note;
}

export const noteOf = (x: Exchange): PlaneNote | undefined => slot.get(x);
