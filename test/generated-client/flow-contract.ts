// What the generated-client flow (flow.ts) takes and answers: shared by the flow and the test that runs it.
export interface FlowInput {
  baseUrl: string;
  apiKey: string;
  modelSlug: string;
  image: Blob;
  /** Completes a generation (the emulator's control plane: the flow itself uses only the public API). */
  complete: (generationId: string) => Promise<void>;
}

export interface FlowResult {
  models: number;
  estimate: number;
  uploadId: string;
  generationId: string;
  replayed: boolean;
  sameGeneration: boolean;
  statuses: string[];
  download: { status: number; type: string; bytes: number };
  netCredits: number;
  balance: number;
  /** Submissions refused by a fault rule injected through the control plane, each narrowed to its envelope. */
  faults: { status: number; code: string; rule: string | null }[];
}
