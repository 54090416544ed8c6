// The browser renderer's in-memory file store: least recently used go first over the cap, never a file with a live URL.
import { describe, expect, it } from 'vitest';
import { createMemoryFileStore } from '../../../../src/infra/browser-renderer/memory-file-store.js';

const bytes = (n: number): Uint8Array => new Uint8Array(n);

function storeAt(maxBytes: number) {
  let now = 1_000;
  const logs: string[] = [];
  const store = createMemoryFileStore({ maxBytes, now: () => now, log: (line) => logs.push(line) });
  const setNow = (value: number): void => {
    now = value;
  };
  return { store, logs, setNow };
}

describe('memory file store', () => {
  it('evicts the least recently used file once over the cap, and counts it', () => {
    const { store } = storeAt(250);
    store.put('a', bytes(100), 'video/mp4');
    store.put('b', bytes(100), 'video/mp4');
    store.get('a');
    store.put('c', bytes(100), 'video/mp4');
    expect([store.get('a'), store.get('b'), store.get('c')].map((e) => e?.key)).toEqual(['a', undefined, 'c']);
    expect(store.stats()).toEqual({ files: 2, bytes: 200, evictions: 1 });
  });

  it('spares files whose signed URLs are still valid on the emulator clock, says so once, and lets them go later', () => {
    const { store, logs, setNow } = storeAt(150);
    store.put('kept', bytes(100), 'video/mp4', 5_000);
    store.put('touched', bytes(100), 'video/mp4');
    store.touch('touched', 4_000);
    store.put('new', bytes(100), 'image/png');
    expect(store.stats()).toMatchObject({ files: 3, bytes: 300, evictions: 0 });
    store.put('newer', bytes(10), 'image/png');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('over the 150-byte cap');

    setNow(4_500);
    store.put('last', bytes(10), 'image/png');
    expect(store.get('touched')).toBeUndefined();
    expect(store.get('kept')?.expiresAt).toBe(5_000);
  });

  it('keeps the later of two expiries when a key is stored again, and replaces its bytes', () => {
    const { store } = storeAt(1_000);
    store.put('k', bytes(10), 'video/mp4', 9_000);
    const entry = store.put('k', bytes(20), 'video/mp4', 2_000);
    expect(entry.expiresAt).toBe(9_000);
    expect(store.stats()).toEqual({ files: 1, bytes: 20, evictions: 0 });
  });

  it('clear() empties it', () => {
    const { store } = storeAt(1_000);
    store.put('k', bytes(10), 'video/mp4');
    store.clear();
    expect(store.get('k')).toBeUndefined();
    expect(store.stats()).toEqual({ files: 0, bytes: 0, evictions: 0 });
  });
});
