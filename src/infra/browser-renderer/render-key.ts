// The render key in a browser: the same material as the Node renderer's key (render-key-material.ts), hashed by WebCrypto.
import { renderKeyMaterial } from '../render-key-material.js';
import type { ReferenceImage, RenderJob } from '../renderer.js';

const hex = (digest: ArrayBuffer): string =>
  Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');

const sha256 = async (data: Uint8Array): Promise<string> =>
  hex(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));

/** An upload carries its hash; bytes handed in without one are hashed here (as the Node hasher does). */
async function imageDigest(image: ReferenceImage | undefined): Promise<string | undefined> {
  if (!image) return undefined;
  return `${image.format}:${image.sha256 ?? (await sha256(image.bytes ?? new Uint8Array(0)))}`;
}

export async function renderKey(job: RenderJob, rendererVersion: string): Promise<string> {
  const [first, last] = await Promise.all([imageDigest(job.firstFrame), imageDigest(job.lastFrame)]);
  return sha256(new TextEncoder().encode(renderKeyMaterial(job, rendererVersion, { first, last })));
}
