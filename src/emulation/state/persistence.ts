// Crash safety for --state-file: an atomic snapshot plus an append-only log, fsynced before a change is acknowledged.
import { existsSync, readFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { RequestHandler } from 'express';
import writeFileAtomic from 'write-file-atomic';
import type { DomainContext } from '../../domain/context.js';
import { DomainError } from '../../domain/errors.js';
import type { ControlDeps } from '../plane-state.js';
import { applyDelta, controlOf, DeltaTracker, type DeltaRecord } from './state-delta.js';
import { exportState, importState, type EmulatorState } from './emulator-state.js';

/** Compact (rewrite the snapshot, empty the log) past this many log bytes: replay at start stays quick. */
const COMPACT_AFTER_BYTES = 8 * 1024 * 1024;
const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

type Snapshot = EmulatorState & { persistence?: { epoch: number } };

export interface Persistence {
  /** Loads snapshot + log (true if there was a state), then writes a fresh snapshot and starts the log. */
  open(): Promise<boolean>;
  /** Appends what changed since the last record and fsyncs it. Serialised: records keep their order. */
  commit(): Promise<void>;
  /** For every request that may change something: its response is held until its changes are on disk. */
  middleware(): RequestHandler;
  /** A last snapshot, then the log is emptied and closed. */
  close(): Promise<void>;
}

/** A folder that is missing or read-only is a mistake in the option, said in one line rather than as a stack trace. */
function unwritable(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === undefined || !['ENOENT', 'EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR'].includes(code)) return error;
  return new DomainError(
    'invalid_state',
    `State file ${path} cannot be written (${code}): its folder must exist and be writable. Create the folder or choose another --state-file.`,
  );
}

export function createPersistence(deps: () => ControlDeps, path: string, log: (line: string) => void): Persistence {
  const logPath = `${path}.log`;
  let epoch = 0;
  let handle: FileHandle | undefined;
  let logBytes = 0;
  let tracker: DeltaTracker | undefined;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const context = (): DomainContext => deps().runtime.context();
  const serial = (step: () => Promise<void>): Promise<void> => {
    const next = chain.then(step);
    chain = next.catch(() => undefined);
    return next;
  };

  /** Snapshot first (atomic rename, fsynced), then empty the log: a crash in between leaves log records of an older epoch, which are skipped. */
  const compact = async () => {
    epoch += 1;
    const snapshot: Snapshot = { ...exportState(deps()), persistence: { epoch } };
    tracker = new DeltaTracker(context());
    tracker.next(epoch, controlOf(deps().state));
    await writeFileAtomic(path, JSON.stringify(snapshot), { fsync: true });
    if (handle) {
      await handle.truncate(0);
      await handle.datasync();
    }
    logBytes = 0;
  };

  const append = async () => {
    if (closed || !handle) return;
    // reset() and state import swap the whole context: a delta cannot express that, a snapshot can.
    if (!tracker || tracker.context !== context()) return compact();
    const record = tracker.next(epoch, controlOf(deps().state));
    if (!record) return;
    const line = `${JSON.stringify(record)}\n`;
    await handle.write(line);
    await handle.datasync();
    logBytes += Buffer.byteLength(line);
    if (logBytes > COMPACT_AFTER_BYTES) await compact();
  };

  const read = (): Snapshot | undefined => {
    if (!existsSync(path)) return undefined;
    let snapshot: Snapshot;
    try {
      snapshot = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
    } catch (error) {
      throw new DomainError('invalid_state', `State file ${path} is not valid JSON: ${(error as Error).message}`);
    }
    const at = snapshot.persistence?.epoch ?? 0;
    epoch = at;
    if (!existsSync(logPath)) return snapshot;
    const lines = readFileSync(logPath, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let record: DeltaRecord;
      try {
        record = JSON.parse(line) as DeltaRecord;
      } catch {
        // Only the last line can be torn (kill -9 mid-write); its response was never sent.
        if (lines.slice(i + 1).some((l) => l.trim()))
          throw new DomainError('invalid_state', `${logPath}: line ${i + 1} is not JSON.`);
        return;
      }
      if (record.epoch === at) applyDelta(snapshot, record);
    });
    return snapshot;
  };

  return {
    async open() {
      const snapshot = read();
      if (snapshot) {
        const { persistence: _p, ...state } = snapshot;
        try {
          await importState(deps(), state);
        } catch (error) {
          throw new DomainError('invalid_state', `State file ${path}: ${(error as Error).message}`);
        }
      }
      try {
        handle = await open(logPath, 'a');
        await serial(compact);
      } catch (error) {
        throw unwritable(path, error);
      }
      // Changes nobody acknowledged (renders finishing, timers) reach the log within a second too.
      timer = setInterval(() => {
        serial(append).catch((error: unknown) => log(`could not write ${logPath}: ${(error as Error).message}`));
      }, 1000);
      timer.unref();
      return snapshot !== undefined;
    },
    commit: () => serial(append),
    middleware() {
      return (req, res, next) => {
        if (READ_ONLY.has(req.method) || !handle) return next();
        const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
        res.end = ((...args: unknown[]) => {
          serial(append).then(
            () => end(...args),
            (error: unknown) => {
              // Not durable, so not acknowledged: the client sees a dropped connection and retries.
              log(`could not write ${logPath}: ${(error as Error).message}; the response was withheld`);
              res.destroy();
            },
          );
          return res;
        }) as typeof res.end;
        next();
      };
    },
    async close() {
      if (closed || !handle) return;
      clearInterval(timer);
      await serial(compact);
      closed = true;
      await handle.close();
    },
  };
}
