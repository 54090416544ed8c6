// One emulator for the whole Storybook: created once, its handlers given to msw-storybook-addon in preview.ts; each
// story resets it and loads its own scenario.
import { createMediaHandlers } from 'media-gen-emulator/msw';
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';

export const media = await createMediaHandlers({ wasmUrl, seed: 1, timing: 'manual' });

/** What a story's widget shows: the answer it got, as a line of text. */
export interface Outcome {
  line: string;
}

const headers = () => ({ Authorization: `Bearer ${media.apiKey}`, 'Content-Type': 'application/json' });

/** Submits a clip as the app's "Generate" button does; answers the generation, or the refusal's status and code. */
export async function submit(key: string) {
  const response = await fetch('/v1/media/generations', {
    method: 'POST',
    headers: { ...headers(), 'Idempotency-Key': key },
    body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'a fox in the snow', max_credits: 10_000 }),
  });
  return { status: response.status, body: await response.json() };
}

/** Polls the generation, moving the emulator clock between polls, until it is done. */
export async function settle(id: string) {
  for (let polls = 0; polls < 30; polls++) {
    const { generation } = await (await fetch(`/v1/media/generations/${id}`, { headers: headers() })).json();
    if (generation.status === 'completed' || generation.status === 'failed') return generation;
    await media.control.advance('10s');
  }
  throw new Error(`generation ${id} did not settle`);
}
