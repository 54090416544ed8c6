// One function builds a world from options and the shared host: the composition root's default world and each sandbox.
import type { Plugins } from './compose-plugins.js';
import type { ResolvedOptions } from './config.js';
import type { Catalogue } from './domain/catalogue.js';
import type { OutputAccess, PlanAdjuster } from './domain/context.js';
import type { Generation } from './domain/generation.js';
import { createRuntime, type OwnedRuntime, type RestoreOrigin, type RuntimeParts } from './domain/runtime.js';
import type { EmulatorHost } from './emulator-host.js';
import { World, type WorldSettings } from './http/world.js';
import type { AnyRenderer } from './infra/renderer.js';
import { createSigner, createSigningSecret, type Signer } from './infra/signer.js';
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

/**
 * What a world's runtime and domain context ask of the composition root, one object per world: the runtime's parts
 * (build, clear, after a reset or restore) and the plugins' answers (plan adjuster, output links), looked up at their
 * first use, since the world and its runtime consult each other. Methods, not closures: an idle sandbox holds little.
 */
class WorldWiring implements RuntimeParts, OutputAccess {
  readonly accountId = SEEDED_ACCOUNT_ID;
  world?: World;
  private adjuster?: PlanAdjuster;
  private links?: OutputAccess;

  constructor(
    private readonly spec: WorldSpec,
    private readonly shared: SharedParts,
    private readonly signer: Signer,
    private readonly keptSecret: KeptSigningSecret,
    private readonly uploadBlobs: UploadBlobs,
  ) {}

  build(seeded: boolean) {
    const { spec, shared, uploadBlobs } = this;
    const { host } = shared;
    return buildContext({
      options: spec.options,
      catalogue: shared.catalogue,
      signer: this.signer,
      crypto: host.crypto,
      parallelism: host.parallelism,
      renderer: shared.startRenderer,
      uploadBytes: (id) => uploadBlobs.read(id),
      currentRenderer: shared.currentRenderer,
      // One plugin scripts generations: the plane (a second adjuster would need an order of its own).
      planAdjuster: (input) => this.adjusterOf()?.(input),
      outputAccess: this,
      promptCheck: shared.promptCheck,
      seeded,
      linkWorld: spec.linkWorld,
    });
  }

  async clearFiles() {
    if (this.spec.clearRenders()) await this.shared.currentRenderer()?.clear();
    await this.uploadBlobs.clear();
  }

  afterReset() {
    this.keptSecret.rotate();
    if (this.world) this.shared.afterReset(this.world);
  }

  afterRestore(origin: RestoreOrigin) {
    if (origin === 'import') this.keptSecret.rotate();
  }

  signing(g: Generation) {
    return this.linksOf()?.signing(g);
  }

  refusal(g: Generation, expires: number) {
    return this.linksOf()?.refusal(g, expires);
  }

  shown(g: Generation) {
    this.linksOf()?.shown(g);
  }

  private adjusterOf() {
    if (!this.adjuster && this.world) this.adjuster = this.shared.planAdjuster(this.world);
    return this.adjuster;
  }

  private linksOf() {
    if (!this.links && this.world) this.links = this.shared.outputAccess(this.world);
    return this.links;
  }
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
  const wiring = new WorldWiring(spec, shared, signer, keptSecret, uploadBlobs);
  const runtime = createRuntime(wiring);
  const world = new World(spec.id, runtime, signer, uploadBlobs, spec.settings);
  wiring.world = world;
  return { world, runtime, keptSecret, uploadBlobs };
}
