// One function builds a world from options and the shared host: the composition root's default world and each sandbox.
import type { Plugins } from './compose-plugins.js';
import type { ResolvedOptions } from './config.js';
import type { Catalogue } from './domain/catalogue.js';
import type { OutputAccess, PlanAdjuster } from './domain/context.js';
import { createRuntime, type OwnedRuntime } from './domain/runtime.js';
import type { EmulatorHost } from './emulator-host.js';
import { World, type WorldSettings } from './http/world.js';
import type { AnyRenderer } from './infra/renderer.js';
import { createSigner, createSigningSecret } from './infra/signer.js';
import { LazyUploadBlobs, type UploadBlobs } from './infra/upload-blobs.js';
import { buildContext, SEEDED_ACCOUNT_ID } from './wiring/build-context.js';
import { type KeptSigningSecret, keptSigningSecret, type MetaStore } from './wiring/kept-signing-secret.js';

/** What every world of an emulator shares: the host, the catalogue, the renderer (its files are content-addressed). */
export interface SharedParts {
  host: EmulatorHost;
  catalogue: Catalogue;
  startRenderer(): Promise<AnyRenderer>;
  currentRenderer(): AnyRenderer | undefined;
  /** The plugins' answers for a world, looked up when called (they are composed after the first world). */
  planAdjuster(world: World): PlanAdjuster | undefined;
  /** Who may see and sign a world's output links (the plane's), looked up like the adjuster. */
  outputAccess(world: World): OutputAccess | undefined;
  promptCheck(prompt: string): void;
  afterReset(world: World): void;
}

/**
 * What the plugins answer for any world, looked up when called: they are composed after the first world exists, so the
 * composition root hands the lookup, not the plugins.
 */
export function pluginAnswers(
  plugins: () => Plugins | undefined,
): Pick<SharedParts, 'planAdjuster' | 'outputAccess' | 'promptCheck' | 'afterReset'> {
  return {
    planAdjuster: (world) => plugins()?.plane.planAdjuster?.(world),
    outputAccess: (world) => plugins()?.plane.outputAccess?.(world),
    promptCheck: (prompt) => plugins()?.plane.checkPrompt?.(prompt),
    afterReset: (world) => {
      for (const plugin of plugins()?.inOrder ?? []) plugin.afterReset?.(world);
    },
  };
}

export interface WorldSpec {
  /** `default`, or a sandbox's id. */
  id: string;
  options: ResolvedOptions;
  settings: WorldSettings;
  /** Where the world keeps its signing secret (its store of record's meta), once that exists. */
  meta(): MetaStore | undefined;
  /** What a reset clears beside its uploads: the default world clears the shared render cache, a sandbox never does. */
  clearRenders(): boolean;
  /** The world signed output URLs name (`?sandbox=`), so a download finds it; none for the default world. */
  linkWorld?: string;
}

export interface BuiltWorld {
  world: World;
  runtime: OwnedRuntime;
  keptSecret: KeptSigningSecret;
  uploadBlobs: UploadBlobs;
}

export function buildWorld(spec: WorldSpec, shared: SharedParts): BuiltWorld {
  const { options } = spec;
  const { host } = shared;
  // Links signed before a reset or an import must answer 403 after it: the ids they name may now be another's.
  const signingSecret = createSigningSecret(options.signingSecret, host.crypto);
  const signer = createSigner(signingSecret, host.crypto);
  const keptSecret = keptSigningSecret(signingSecret, {
    fixed: options.signingSecret !== undefined,
    meta: spec.meta,
    log: options.log,
  });
  const uploadBlobs = new LazyUploadBlobs(() => host.uploadBlobs(options));
  // The world and its runtime consult each other: the runtime's callbacks look the world up when called.
  let world: World | undefined;
  let adjuster: PlanAdjuster | undefined;
  const adjusterOf = () => {
    if (!adjuster && world) adjuster = shared.planAdjuster(world);
    return adjuster;
  };
  let links: OutputAccess | undefined;
  const linksOf = () => {
    if (!links && world) links = shared.outputAccess(world);
    return links;
  };
  const runtime = createRuntime({
    accountId: SEEDED_ACCOUNT_ID,
    build: (seeded) =>
      buildContext({
        options,
        catalogue: shared.catalogue,
        signer,
        crypto: host.crypto,
        parallelism: host.parallelism,
        renderer: shared.startRenderer,
        uploadBytes: (id) => uploadBlobs.read(id),
        currentRenderer: shared.currentRenderer,
        // One plugin scripts generations: the plane (a second adjuster would need an order of its own).
        planAdjuster: (input) => adjusterOf()?.(input),
        outputAccess: {
          signing: (g) => linksOf()?.signing(g),
          refusal: (g, expires) => linksOf()?.refusal(g, expires),
          shown: (g) => linksOf()?.shown(g),
        },
        promptCheck: shared.promptCheck,
        seeded,
        linkWorld: spec.linkWorld,
      }),
    clearFiles: async () => {
      if (spec.clearRenders()) await shared.currentRenderer()?.clear();
      await uploadBlobs.clear();
    },
    afterReset: () => {
      keptSecret.rotate();
      if (world) shared.afterReset(world);
    },
    afterRestore: (origin) => {
      if (origin === 'import') keptSecret.rotate();
    },
  });
  world = new World(spec.id, runtime, signer, uploadBlobs, spec.settings);
  return { world, runtime, keptSecret, uploadBlobs };
}
