// The write watcher sits on one app's response prototype: it sees that app's writes, in order, and no other app's.
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { watchResponseWrites } from './response-writes.js';

function appWriting(pieces: string[]) {
  const app = express();
  app.get('/', (_req, res) => {
    for (const piece of pieces.slice(0, -1)) res.write(piece);
    res.end(pieces.at(-1));
  });
  return app;
}

describe('watchResponseWrites', () => {
  it("sees every write and the end of its own app's responses, and leaves another app in the process alone", async () => {
    const watched = appWriting(['{"a":', '1', '}']);
    const other = appWriting(['{"b":2}']);
    const seen: unknown[] = [];
    watchResponseWrites(watched, (_res, chunk) => seen.push(chunk));
    const first = await request(watched).get('/');
    const second = await request(other).get('/');
    expect([first.text, second.text]).toEqual(['{"a":1}', '{"b":2}']);
    expect(seen).toEqual(['{"a":', '1', '}']);
  });

  it('passes encodings and callbacks through untouched', async () => {
    const app = express();
    app.get('/', (_req, res) => {
      res.write('68656c6c6f', 'hex', () => res.end(Buffer.from(' world')));
    });
    const seen: [unknown, unknown][] = [];
    watchResponseWrites(app, (_res, chunk, encoding) => seen.push([chunk, encoding]));
    const answer = await request(app).get('/');
    expect(answer.text).toBe('hello world');
    expect(seen).toEqual([
      ['68656c6c6f', 'hex'],
      [Buffer.from(' world'), undefined],
    ]);
  });
});
