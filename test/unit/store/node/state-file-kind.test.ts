// What a --state-file holds, read from its first bytes: nothing yet, an SQLite database, the old JSON state, or
// something refused in one line (a stray write-ahead log, a folder, an unreadable file, any other content).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreRefused } from '../../../../src/infra/sqlite-connection.js';
import { stateFileKind } from '../../../../src/store/node/state-file-kind.js';

const folders: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'state-kind-'));
  folders.push(made);
  return made;
}

function fileWith(content: string | Buffer): string {
  const path = join(folder(), 'state.db');
  writeFileSync(path, content);
  return path;
}

function refusal(path: string): string {
  expect(() => stateFileKind(path)).toThrow(StoreRefused);
  try {
    stateFileKind(path);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}

describe('stateFileKind', () => {
  it('is new for a path that does not exist, and for an empty file', () => {
    expect(stateFileKind(join(folder(), 'absent.db'))).toBe('new');
    expect(stateFileKind(fileWith(''))).toBe('new');
  });

  it('refuses a missing database whose write-ahead log is still there', () => {
    const path = join(folder(), 'state.db');
    writeFileSync(`${path}-wal`, 'acknowledged changes');
    expect(refusal(path)).toBe(
      `State file ${path} does not exist, but its write-ahead log ${path}-wal does: it holds acknowledged changes of that database. Put the database back beside it, or move ${path}-wal away to start empty.`,
    );
  });

  it("is sqlite for a file that starts with SQLite's header", () => {
    expect(stateFileKind(fileWith(Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(84)])))).toBe(
      'sqlite',
    );
  });

  it('is json for a file whose first non-blank character is a brace', () => {
    expect(stateFileKind(fileWith('{"format": "x"}'))).toBe('json');
    expect(stateFileKind(fileWith('\n  \t{"format": "x"}'))).toBe('json');
  });

  it('refuses any other content, naming the file', () => {
    for (const content of ['hello {', '[1, 2]', 'SQLite format 2\0']) {
      const path = fileWith(content);
      expect(refusal(path)).toBe(
        `State file ${path} is neither an SQLite database nor a JSON state of this emulator; it was left untouched. Choose another --state-file (a new path starts empty).`,
      );
    }
  });

  it('refuses a folder', () => {
    const path = join(folder(), 'state.db');
    mkdirSync(path);
    expect(refusal(path)).toBe(
      `State file ${path} is a folder; it was left untouched. Choose a file for --state-file.`,
    );
  });

  it('refuses a path that cannot be opened, with the error code', async () => {
    // A Unix socket exists but cannot be opened as a file (ENXIO), whoever runs the test.
    const path = join(folder(), 'state.sock');
    const server = createServer();
    servers.push(server);
    await new Promise<void>((done) => server.listen(path, done));
    expect(refusal(path)).toBe(
      `State file ${path} cannot be read (ENXIO); it was left untouched. Make it readable and writable, or choose another --state-file.`,
    );
  });

  // Linux's /proc/self/mem opens, but reading its address 0 (never mapped) fails with EIO; other systems have no file
  // that opens and then fails to read, so there the case cannot be set up (CI and the fresh-machine step are Linux).
  it.runIf(process.platform === 'linux')('refuses a file whose reading fails, with the error code', () => {
    expect(refusal('/proc/self/mem')).toBe(
      'State file /proc/self/mem cannot be read (EIO); it was left untouched. Choose a file for --state-file.',
    );
  });

  it('closes the file it reads (no descriptor left open per start)', () => {
    const path = fileWith('{"format": "x"}');
    const open = () => readdirSync('/dev/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) stateFileKind(path);
    expect(open()).toBe(before);
  });
});
