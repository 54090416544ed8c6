// A request Node's parser refuses (headers over 16 KB) gets its 431 readable while the client is still sending: the
// emulator closes with a FIN and drains, where a plain destroy would send a reset the client may read first.
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestEmulator } from '../helpers/emulator.js';

/** Resolves with what the server sent and how the connection ended, once it has ended. */
function watch(socket: Socket): Promise<{ received: string; error?: string }> {
  return new Promise((resolve) => {
    let received = '';
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code;
    });
    socket.on('close', () => resolve({ received, error }));
  });
}

describe('a request whose headers are over 16 KB', () => {
  it('is answered 431, and the client may go on sending its body without a reset', async () => {
    const running = await startTestEmulator({ timing: 'manual', ffmpegPath: false });
    const { port } = new URL(running.url);
    const socket = connect(Number(port), '127.0.0.1');
    const ended = watch(socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    const body = Buffer.alloc(512 * 1024, '[');
    socket.write(
      `POST /v1/media/generations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
        `Idempotency-Key: ${'x'.repeat(50_000)}\r\n\r\n`,
    );
    // Wait for the answer, then keep sending the body as a client that does not read ahead would.
    await new Promise((resolve) => socket.once('data', resolve));
    for (let at = 0; at < body.length; at += 64 * 1024) socket.write(body.subarray(at, at + 64 * 1024));
    socket.end();
    const { received, error } = await ended;
    expect(received).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(error).toBeUndefined();
  });
});
