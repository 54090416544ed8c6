// What a --state-file holds before anything opens it: nothing yet, an SQLite database, or the old JSON state; anything
// else (and a write-ahead log whose database is gone) is refused in one line, the file left as it was.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { StoreRefused } from '../../infra/sqlite-connection.js';

export type StateFileKind = 'new' | 'sqlite' | 'json';

/** The first 16 bytes of every SQLite 3 database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** Reads up to `length` bytes from the start of the file; a folder or an unreadable file is refused. */
function head(path: string, length: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    // Node's file-system errors always carry a code (EACCES, EISDIR, EIO...): it is what the one line reports.
    const { code } = error as NodeJS.ErrnoException;
    throw new StoreRefused(
      `State file ${path} cannot be read (${code}); it was left untouched. Make it readable and writable, or choose another --state-file.`,
    );
  }
  try {
    const bytes = Buffer.alloc(length);
    return bytes.subarray(0, readSync(fd, bytes, 0, length, 0));
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    const what = code === 'EISDIR' ? 'is a folder' : `cannot be read (${code})`;
    throw new StoreRefused(`State file ${path} ${what}; it was left untouched. Choose a file for --state-file.`);
  } finally {
    closeSync(fd);
  }
}

/**
 * The kind is read from the file's first bytes, which is all a start may read before knowing (a database can be
 * hundreds of MB): SQLite's header, or JSON text. The old JSON state is then checked by its shape when it is read
 * (readLegacyStateFile), and a database by its tables when it is opened (sqlite-connection.ts); an empty file is a new
 * database, as SQLite treats it.
 */
export function stateFileKind(path: string): StateFileKind {
  if (!existsSync(path)) {
    // The database was deleted (or moved) while its log stayed: the log holds acknowledged changes that starting
    // empty would lose, and SQLite would delete it at the first write.
    const log = `${path}-wal`;
    if (existsSync(log))
      throw new StoreRefused(
        `State file ${path} does not exist, but its write-ahead log ${log} does: it holds acknowledged changes of that database. Put the database back beside it, or move ${log} away to start empty.`,
      );
    return 'new';
  }
  const bytes = head(path, 256);
  if (bytes.length === 0) return 'new';
  if (bytes.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) return 'sqlite';
  if (bytes.toString('latin1').trimStart().startsWith('{')) return 'json';
  throw new StoreRefused(
    `State file ${path} is neither an SQLite database nor a JSON state of this emulator; it was left untouched. Choose another --state-file (a new path starts empty).`,
  );
}
