// The state document: what an export holds, each refusal of an import's envelope (its code, message and field), the
// kept sections' order of checking and installing, and the inline upload bytes an older export carries.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import type { RestoreOrigin } from '../../../src/domain/runtime.js';
import type { Emulator } from '../../../src/index.js';
import { createDiskUploadBlobs } from '../../../src/infra/node/disk-upload-blobs.js';
import { createMemoryUploadBlobs, type UploadBlobs } from '../../../src/infra/upload-blobs.js';
import { type DocumentDeps, exportState, importState } from '../../../src/store/state-document.js';
import { createEmulatorWith, runtimeOf } from '../../../src/testing.js';
import { VERSION } from '../../../src/version.js';
import type { KeptState, StateDocument } from '../../../src/wiring/kept-state.js';

const emulators: Emulator[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const emulator of emulators.splice(0)) await emulator.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A plugin's kept sections as the document sees them: a value (`settings`) and a log (`journal`), each noting calls. */
function keptSections() {
  const calls: string[] = [];
  const held = { settings: { rules: ['a'] } as unknown, journal: { seq: 2, entries: [{ id: 1 }, { id: 2 }] } };
  const state: KeptState = {
    sections: [
      {
        kind: 'value',
        name: 'settings',
        empty: {},
        current: () => held.settings,
        prepare: (value, origin) => {
          calls.push(`prepare settings ${origin}`);
          if ((value as { refuse?: boolean } | undefined)?.refuse)
            throw new DomainError('invalid_state', 'settings refused');
          return () => {
            calls.push('install settings');
            held.settings = value;
          };
        },
      },
      {
        kind: 'log',
        name: 'journal',
        largeMembers: { keep: 10, members: [] },
        current: () => ({ seq: held.journal.seq, entries: [...held.journal.entries] }),
        lastId: () => held.journal.seq,
        firstId: () => held.journal.entries[0]?.id ?? 0,
        after: (id) => held.journal.entries.filter((e) => e.id > id),
        prepare: (value, origin) => {
          calls.push(`prepare journal ${origin}`);
          return () => {
            calls.push('install journal');
            held.journal = value as typeof held.journal;
          };
        },
      },
    ],
  };
  return { calls, held, state };
}

function world(blobs: UploadBlobs = createMemoryUploadBlobs({ maxBytes: 1_000_000 })) {
  const emulator = createEmulatorWith({ seed: 1, timing: 'manual', ffmpegPath: false });
  emulators.push(emulator);
  const { calls, held, state } = keptSections();
  const deps: DocumentDeps = { runtime: runtimeOf(emulator), uploadBlobs: blobs, kept: state };
  const balance = () => deps.runtime.context().ledger.balance('acct_local');
  const fund = (amount: number) => {
    const ctx = deps.runtime.context();
    ctx.ledger.append({ type: 'funding', accountId: 'acct_local', amount, at: ctx.clock.now() });
  };
  return { deps, calls, held, balance, fund };
}

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error as DomainError,
  );

/** An upload's record as an older export holds it, its bytes inline. */
const inlineUpload = (id: string, data: Uint8Array, at: number) => ({
  id,
  accountId: 'acct_local',
  modelSlug: 'motion-lite-v1',
  targetSlot: null,
  filename: 'frame.png',
  format: 'png',
  mimeType: 'image/png',
  width: 2,
  height: 2,
  bytes: data.length,
  sha256: 'a'.repeat(64),
  createdAt: at,
  data: Buffer.from(data).toString('base64'),
});

describe('exportState', () => {
  it('holds the format, the version, this emulator’s version, the clock’s instant, the records and each section', () => {
    const { deps, held } = world();
    const ctx = deps.runtime.context();
    ctx.clock.set(Date.parse('2026-03-04T05:06:07.089Z'));
    const document = exportState(deps);
    expect(document.format).toBe('media-gen-emulator-state');
    expect(document.version).toBe(1);
    expect(document.emulator_version).toBe(VERSION);
    expect(document.exported_at).toBe('2026-03-04T05:06:07.089Z');
    expect(document.domain.accounts.map((a) => a.id)).toContain('acct_local');
    expect(Object.keys(document.control)).toEqual(['settings', 'journal']);
    expect(document.control.settings).toEqual({ rules: ['a'] });
    expect(document.control.journal).toEqual({ seq: 2, entries: [{ id: 1 }, { id: 2 }] });
    // A value is copied: what the plugin does with it afterwards does not change the document.
    (held.settings as { rules: string[] }).rules.push('b');
    expect(document.control.settings).toEqual({ rules: ['a'] });
  });
});

describe('importState', () => {
  it('replaces the records and installs every section, checked first, with the origin it is given', async () => {
    const source = world();
    source.fund(40);
    const document = exportState(source.deps);
    const target = world();
    await importState(target.deps, structuredClone(document));
    expect(target.balance()).toBe(source.balance());
    expect(target.calls).toEqual([
      'prepare settings import',
      'prepare journal import',
      'install settings',
      'install journal',
    ]);
    const reloaded = world();
    await importState(reloaded.deps, structuredClone(document), 'store' satisfies RestoreOrigin);
    expect(reloaded.calls.slice(0, 2)).toEqual(['prepare settings store', 'prepare journal store']);
  });

  it('lets the plugins rewrite an older document before any section is checked', async () => {
    const source = world();
    const document = exportState(source.deps) as StateDocument;
    const target = world();
    const seen: unknown[] = [];
    target.deps.kept = {
      ...target.deps.kept,
      upgrade: (older) => {
        seen.push(older.control.settings);
        older.control.settings = { rules: ['upgraded'] };
      },
    };
    await importState(target.deps, structuredClone(document));
    expect(seen).toEqual([{ rules: ['a'] }]);
    expect(target.held.settings).toEqual({ rules: ['upgraded'] });
  });

  it('changes nothing when a section refuses its part', async () => {
    const source = world();
    const document = exportState(source.deps);
    const target = world();
    target.fund(7);
    const before = target.balance();
    const error = await refusalOf(
      importState(target.deps, { ...document, control: { ...document.control, settings: { refuse: true } } }),
    );
    expect(error).toMatchObject({ code: 'invalid_state', message: 'settings refused' });
    expect(target.calls).toEqual(['prepare settings import']);
    expect(target.balance()).toBe(before);
  });

  describe('refuses an envelope that is not an export, naming the field, and changes nothing', () => {
    const formatMessage =
      'The state must be a JSON object with "format": "media-gen-emulator-state", as GET /_emulator/state exports it.';
    it.each([
      ['null', null],
      ['a number', 7],
      ['a string', 'media-gen-emulator-state'],
      ['an object without a format', { version: 1, control: {} }],
      ['another format', { format: 'other', version: 1, control: {} }],
    ])('%s: invalid_state on "format"', async (_name, input) => {
      const { deps, calls } = world();
      const error = await refusalOf(importState(deps, input));
      expect(error).toBeInstanceOf(DomainError);
      expect(error.code).toBe('invalid_state');
      expect(error.message).toBe(formatMessage);
      expect(error.details).toEqual({
        problems: [{ field: 'format', message: 'must be "media-gen-emulator-state"' }],
      });
      expect(calls).toEqual([]);
    });

    it.each([
      ['missing', undefined, 'missing'],
      ['null', null, 'null'],
      ['another number', 2, '2'],
      ['the string "1"', '1', '"1" (a string)'],
      ['true', true, 'true (a boolean)'],
      ['an array', [1], '[1] (an array)'],
      ['an object', { n: 1 }, '{"n":1} (an object)'],
      ['a long text, cut at 40 characters', 'x'.repeat(60), `"${'x'.repeat(39)} (a string)`],
    ])('a version that is %s: invalid_state on "version", saying what was sent', async (_name, version, said) => {
      const { deps } = world();
      const error = await refusalOf(importState(deps, { format: 'media-gen-emulator-state', version, control: {} }));
      expect(error.code).toBe('invalid_state');
      expect(error.message).toBe(`State version ${said} is not supported; this emulator reads version 1 (the number).`);
      expect(error.details).toEqual({ problems: [{ field: 'version', message: `must be the number 1, got ${said}` }] });
    });

    it.each([
      ['missing', undefined],
      ['null', null],
      ['an array', []],
      ['a string', 'settings'],
    ])('a control that is %s: invalid_state on "control", naming the sections it must hold', async (_name, control) => {
      const { deps, calls } = world();
      const error = await refusalOf(importState(deps, { format: 'media-gen-emulator-state', version: 1, control }));
      expect(error.code).toBe('invalid_state');
      expect(error.message).toBe('control: must be an object holding settings, journal.');
      expect(error.details).toEqual({
        problems: [{ field: 'control', message: 'must be an object holding settings, journal' }],
      });
      expect(calls).toEqual([]);
    });
  });
});

describe('importState and the inline upload bytes of an older export', () => {
  async function withUploads(blobs: UploadBlobs, uploads: ReturnType<typeof inlineUpload>[]) {
    const source = world();
    const document = exportState(source.deps);
    const target = world(blobs);
    const at = target.deps.runtime.context().clock.now();
    const input = {
      ...document,
      domain: { ...document.domain, uploads: uploads.map((u) => ({ ...u, createdAt: at })) },
    };
    return { target, run: () => importState(target.deps, input) };
  }

  it('writes them to the upload store, and keeps only their records', async () => {
    const blobs = createMemoryUploadBlobs({ maxBytes: 1_000_000 });
    const bytes = new Uint8Array([1, 2, 3, 4]);
    const { target, run } = await withUploads(blobs, [inlineUpload('upl_a', bytes, 0)]);
    await run();
    expect(await blobs.read('upl_a')).toEqual(bytes);
    expect(target.deps.runtime.context().uploads.get('upl_a')).toMatchObject({ id: 'upl_a' });
    expect(exportState(target.deps).domain.uploads[0]).not.toHaveProperty('data');
  });

  it('refuses them all when together they pass the store’s cap, naming the last one, and writes none', async () => {
    const blobs = createMemoryUploadBlobs({ maxBytes: 8192 });
    const small = new Uint8Array([1]);
    const { target, run } = await withUploads(blobs, [
      inlineUpload('upl_a', small, 0),
      inlineUpload('upl_b', small, 0),
      inlineUpload('upl_c', small, 0),
    ]);
    const error = await refusalOf(run());
    expect(error.code).toBe('invalid_state');
    expect(error.message).toContain('The state does not fit the upload store');
    expect(error.details).toEqual({
      problems: [
        {
          field: 'domain.uploads[2].data',
          message:
            'the inline uploads would fill the upload store to 12288 bytes (each counted in whole 4 KiB blocks), past its cap of 8192; start the emulator with a larger --max-upload-store-bytes, reset it (POST /_emulator/reset), or import fewer uploads',
        },
      ],
    });
    expect(['upl_a', 'upl_b', 'upl_c'].map((id) => blobs.has(id))).toEqual([false, false, false]);
    expect(target.calls).toEqual(['prepare settings import', 'prepare journal import']);
  });

  it('accepts uploads that fill the store exactly to its cap', async () => {
    const blobs = createMemoryUploadBlobs({ maxBytes: 8192 });
    const { run } = await withUploads(blobs, [
      inlineUpload('upl_a', new Uint8Array([1]), 0),
      inlineUpload('upl_b', new Uint8Array([2]), 0),
    ]);
    await run();
    expect(blobs.bytes()).toBe(8192);
  });

  it('takes back the files it wrote when a later write fails, and keeps the ones that were there before', async () => {
    const memory = createMemoryUploadBlobs({ maxBytes: 1_000_000 });
    await memory.put('upl_a', new Uint8Array([9]));
    const failing: UploadBlobs = Object.assign(Object.create(memory) as UploadBlobs, {
      put: async (id: string, data: Uint8Array) => {
        if (id === 'upl_c') throw new Error('the disk failed');
        await memory.put(id, data);
      },
    });
    const { target, run } = await withUploads(failing, [
      inlineUpload('upl_a', new Uint8Array([1]), 0),
      inlineUpload('upl_b', new Uint8Array([2]), 0),
      inlineUpload('upl_c', new Uint8Array([3]), 0),
    ]);
    await expect(run()).rejects.toThrow('the disk failed');
    expect(memory.has('upl_a')).toBe(true);
    expect(memory.has('upl_b')).toBe(false);
    expect(target.deps.runtime.context().uploads.get('upl_b')).toBeUndefined();
  });

  it('imports a state without inline bytes into a store already past its cap (restarted with a smaller one)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'state-document-'));
    folders.push(folder);
    // Two blocks kept from an earlier run under a larger cap; this run's cap is one block.
    writeFileSync(join(folder, 'upl_old'), new Uint8Array(8000));
    const blobs = createDiskUploadBlobs({ dir: folder, maxBytes: 4096, durable: false });
    expect(blobs.has('upl_old')).toBe(true);
    expect(blobs.bytes()).toBeGreaterThan(blobs.maxBytes);
    const source = world();
    source.fund(3);
    const target = world(blobs);
    await importState(target.deps, exportState(source.deps));
    expect(target.balance()).toBe(source.balance());
    expect(blobs.has('upl_old')).toBe(true);
  });
});
