// The port behind signed file links: where an output's bytes are read from, and how a lost file is made again.
import type { Generation, OutputFile } from './generation.js';

/** An output's stored bytes: a file on disk (Node), or the bytes themselves (a host without files, a browser). */
export type StoredOutput = { bytes: number } & (
  | { path: string; data?: undefined }
  | { data: Uint8Array; path?: undefined }
);

/**
 * Where a completed output's bytes come from: the file store while it has them, or a fresh render of the generation
 * (same inputs, so the same pixels) once a restart or an eviction lost them.
 */
export interface OutputFileSource {
  /** The stored file now, without waiting; undefined once the store no longer has it. */
  kept(output: OutputFile): StoredOutput | undefined;
  /**
   * Renders the output again, through the render queue, kept until `retainUntil` (emulator clock, ms). Rejects with a
   * DomainError when the generation's inputs are gone for good, with any other error when the render failed.
   */
  restore(generation: Generation, output: OutputFile, retainUntil: number): Promise<StoredOutput>;
}
