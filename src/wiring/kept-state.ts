// What a plugin keeps in the store of record beside the service's records, and the handle it gets on that store.
import type { DomainSnapshot } from '../domain/domain-snapshot.js';
import type { RestoreOrigin } from '../domain/runtime.js';
import { WorldPart } from '../http/world.js';
import type { LogTable } from '../infra/sqlite-store.js';

/** The export document: the service's records under `domain`, the plugins' sections under `control`, in their order. */
export interface StateDocument<Sections = Record<string, unknown>> {
  format: 'media-gen-emulator-state';
  version: 1;
  emulator_version: string;
  exported_at: string;
  domain: DomainSnapshot;
  control: Sections;
}

/** Installs a checked part of a document: it replaces what the plugin holds, and cannot fail. */
export type Install = () => void;

interface SectionBase {
  /** Its member of the document's `control` object. */
  readonly name: string;
  /**
   * Checks its part of a document whole and changes nothing (an import is refused by the first section that throws a
   * coded error); the answer installs it once every section and the service's records have been checked. `origin`
   * says whether the part comes from an import or from the store itself (a start, a reload after a failed commit).
   */
  prepare(value: unknown, origin: RestoreOrigin): Install;
}

/** A small value, written whole whenever its JSON text changes (the text is its change mark). */
export interface KeptValue extends SectionBase {
  readonly kind: 'value';
  /** Its value now, as the document holds it; the store copies it and never changes it. */
  current(): unknown;
  /** What a store that never held this section reads (one written before the section existed). */
  readonly empty: unknown;
}

/** A log's part of a document: its entries (ids growing from 1, oldest first) and the last id handed out. */
export interface LogDocument {
  seq: number;
  entries: { id: number }[];
}

/** An append-only list bounded by dropping its oldest entries: written as one row per entry, in a table of its own. */
export interface KeptLog extends SectionBase {
  readonly kind: 'log';
  readonly name: LogTable;
  /** A copy of what it keeps. */
  current(): LogDocument;
  /** Its change marks: the last id handed out, and the oldest id still kept (0 when empty). */
  lastId(): number;
  firstId(): number;
  /** The entries after `id`, oldest first. */
  after(id: number): { id: number }[];
  /** Members only the newest `keep` entries carry: a start reads them as null on older rows, and never parses them. */
  readonly largeMembers: { keep: number; members: readonly string[] };
}

export type KeptSection = KeptValue | KeptLog;

/** A plugin's part of the store of record. */
export interface KeptState {
  /** In the order the document lists them. */
  sections: readonly KeptSection[];
  /** Rewrites an older document in place before it is checked (words a newer version no longer reads). */
  upgrade?(document: { domain: unknown; control: Record<string, unknown> }): void;
}

/** The store of record as a plugin reaches it. */
/** The store's handle, as a world's part: what the plane's state operations reach it through. */
export const STORE_HANDLE = new WorldPart<StoreHandle>('the store of record');

export interface StoreHandle {
  /** The whole state as a document (output files are not included). */
  exportState(): StateDocument;
  /** Replaces the whole state with a document, checked whole before anything changes. */
  importState(document: unknown): Promise<void>;
  /** Commits what changed since the last commit; throws the 507 (storage_full) when the disk refuses it. */
  commit(): void;
}
