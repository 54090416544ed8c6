// Control operations on timing profiles, globally or per model, at run time; new generations use them.
import { PlaneError } from '../error-codes.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import { parseInput, timingInput } from '../inputs.js';
import { timingView, type TimingView } from '../views.js';

export function readTiming(deps: ControlDeps): TimingView {
  return timingView(contextOf(deps));
}

/** `{ profile?, by_model?: { slug: profile | null } }`: by_model entries are merged, null removes one. */
export function setTiming(deps: ControlDeps, input: unknown): TimingView {
  const body = parseInput(timingInput, input, 'timing');
  const ctx = contextOf(deps);
  for (const slug of Object.keys(body.by_model ?? {}))
    if (!ctx.catalogue.get(slug))
      throw new PlaneError('invalid_control_request', `by_model.${slug}: no model '${slug}' in the catalogue.`);
  if (body.profile) ctx.settings.timing.profile = body.profile;
  for (const [slug, profile] of Object.entries(body.by_model ?? {})) {
    if (profile === null) delete ctx.settings.timing.byModel[slug];
    else ctx.settings.timing.byModel[slug] = profile;
  }
  return timingView(ctx);
}
