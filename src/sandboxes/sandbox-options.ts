// A sandbox's options: the instance's, with what its creation names (seed, balance, timing) and a key of its own.
import type { ResolvedOptions } from '../config.js';
import type { SandboxSpec } from '../emulation/sandboxes/sandbox-schema.js';

/** A text seed as the number the ids and random source take (FNV-1a, 32 bits): the same text, the same run. */
export function seedNumber(seed: string | number): number {
  if (typeof seed === 'number') return seed;
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

export function sandboxOptions(
  instance: ResolvedOptions,
  spec: SandboxSpec,
  apiKey: string,
  id: string,
): ResolvedOptions {
  const timingByModel = { ...instance.timingByModel };
  for (const [slug, profile] of Object.entries(spec.timing?.by_model ?? {}))
    if (profile === null) delete timingByModel[slug];
    else timingByModel[slug] = profile;
  // Object.assign, not `{ ...instance, apiKey, ... }`: on Node 20's V8 that gives each sandbox's options a hidden class of
  // their own.
  return Object.assign({}, instance, {
    apiKey,
    initialBalance: spec.balance ?? instance.initialBalance,
    seed: spec.seed === undefined ? instance.seed : seedNumber(spec.seed),
    timing: spec.timing?.profile ?? instance.timing,
    timingByModel,
    // Its own secret: a link or cursor of one world never verifies in another.
    signingSecret: undefined,
    // Its uploads beside the state file, in a folder of its own (node-host.ts adds `.uploads`).
    stateFile: instance.stateFile === undefined ? undefined : `${instance.stateFile}.sandboxes/${id}`,
  });
}
