// The emulator a live service is compared with: in-process on loopback, with the live wallet balance and key scope.
import type { EmulatorOptions } from '../emulator-options.js';
import type { ModelEntry } from '../domain/catalogue-schema.js';
import { startEmulator } from '../start-emulator.js';
import { createSender, type Send } from './http-probe.js';

const REFERENCE_KEY = 'sk-media-verify-reference-key';
const SCOPED_KEY = 'sk-media-verify-reference-scoped';

export interface Reference {
  models: readonly ModelEntry[];
  send: Send;
  /** Gives the seeded account the live balance, so balance checks answer alike. */
  setBalance(credits: number): Promise<void>;
  /** Creates the reference's own key limited to `model`, used for requests with `auth: 'scoped'`. */
  scopeTo(model: string): Promise<void>;
  /** Lets every accepted generation run to its end. */
  finish(): Promise<void>;
  close(): Promise<void>;
}

/** `calibration` and `catalogue` make it the emulator a team actually runs; nothing else of theirs is needed. */
export async function startReference(options: Pick<EmulatorOptions, 'calibration' | 'catalogue'>): Promise<Reference> {
  const running = await startEmulator({
    ...options,
    apiKey: REFERENCE_KEY,
    seed: 1,
    timing: 'instant',
    ffmpegPath: false,
    magicPrompts: false,
    controlPlane: false,
  });
  const { control, emulator } = running;
  const send = createSender(
    { baseUrl: running.url, apiKey: REFERENCE_KEY, scopedApiKey: SCOPED_KEY },
    { rps: 0, sleep: async () => {}, now: () => 0 },
  );
  return {
    models: emulator.catalogue.models,
    send,
    setBalance: async (credits) => {
      await control.setBalance(credits);
    },
    scopeTo: async (model) => {
      await control.createKey({ secret: SCOPED_KEY, name: 'verify scoped key', model_scope: model });
    },
    finish: async () => {
      await emulator.settle();
      await emulator.advance(0);
    },
    close: () => running.close(),
  };
}
