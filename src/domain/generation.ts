// The generation as the emulator keeps it, and its transition table.
import type { MediaKind } from './catalogue-schema.js';

/** The one list of statuses: request schemas, answers, snapshots and the control plane all take it from here. */
export const GENERATION_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

/** The only moves a generation can make; anything else is a bug or a refused control call. */
export const TRANSITIONS: Readonly<Record<GenerationStatus, readonly GenerationStatus[]>> = {
  pending: ['running', 'failed'],
  running: ['completed', 'failed'],
  completed: [],
  failed: [],
};

export const isFinal = (status: GenerationStatus) => TRANSITIONS[status].length === 0;

/** How far along the transition table a status is: both final statuses are one step past running. */
export const STATUS_RANK: Readonly<Record<GenerationStatus, number>> = {
  pending: 0,
  running: 1,
  completed: 2,
  failed: 2,
};

export type RefundPolicy = { kind: 'full' } | { kind: 'none' } | { kind: 'partial'; amount: number };

export interface GenerationError {
  code: string;
  message: string;
}

export interface FailurePlan extends GenerationError {
  at: 'pending' | 'running';
  /** Delay after entering `at` before the failure. */
  afterMs: number;
  refund: RefundPolicy;
}

/** How one generation's life will go: its timers and any outcome a plan adjuster set at acceptance. */
export interface GenerationPlan {
  pendingMs: number;
  runningMs: number;
  /** Timers fire only when the clock is advanced (the `manual` profile). */
  manualOnly: boolean;
  fail?: FailurePlan;
  /** Stays `running` forever. */
  stall?: boolean;
}

export interface OutputFile {
  index: number;
  fileKey: string;
  mimeType: string;
  format: string;
  bytes: number;
  width?: number;
  height?: number;
  durationSeconds?: number;
}

export interface Generation {
  seq: number;
  id: string;
  requestId: string;
  accountId: string;
  apiKeyId: number;
  kind: MediaKind;
  modelSlug: string;
  prompt: string;
  /** Echo of the request's params, as sent. */
  params: Record<string, string>;
  texts: Record<string, string>;
  /** Params with defaults filled in: what is priced and rendered. */
  resolvedParams: Record<string, string>;
  /** Upload ids by frame role. */
  frames: { first?: string; last?: string };
  status: GenerationStatus;
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
  error: GenerationError | null;
  outputs: OutputFile[];
  plan: GenerationPlan;
}
