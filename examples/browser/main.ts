// A page that calls the media-generation API as an app would, answered in the page by media-gen-emulator/msw.
import { createMediaHandlers } from 'media-gen-emulator/msw';
import { setupWorker } from 'msw/browser';
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const wallet = $<HTMLParagraphElement>('wallet');
const status = $<HTMLParagraphElement>('status');
const video = $<HTMLVideoElement>('video');
const button = $<HTMLButtonElement>('generate');

// The wallet is kept in IndexedDB: reload the page and it is still there.
const media = await createMediaHandlers({ wasmUrl, persist: true, timing: 'fast' });
await setupWorker(...media.handlers).start({ quiet: true });
const headers = { Authorization: `Bearer ${media.apiKey}`, 'Content-Type': 'application/json' };

async function showWallet() {
  const usage = await (await fetch('/v1/media/usage', { headers })).json();
  wallet.textContent = `Wallet: ${usage.wallet_balance} credits`;
}

async function generate() {
  button.disabled = true;
  const submitted = await fetch('/v1/media/generations', {
    method: 'POST',
    headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({
      model_slug: 'motion-lite-v1',
      prompt: $<HTMLInputElement>('prompt').value,
      params: { duration: $<HTMLInputElement>('seconds').value },
      max_credits: 10_000,
    }),
  });
  let { generation } = await submitted.json();
  await showWallet();
  // Poll as the API says: every poll_after_seconds (the 'fast' timing finishes in well under a second).
  while (generation.status === 'pending' || generation.status === 'running') {
    status.textContent = `Generation ${generation.status}…`;
    await new Promise((resolve) => setTimeout(resolve, 200));
    generation = (await (await fetch(`/v1/media/generations/${generation.id}`, { headers })).json()).generation;
  }
  if (generation.status !== 'completed') {
    status.textContent = `Generation ${generation.status}`;
    button.disabled = false;
    return;
  }
  video.hidden = false;
  video.src = generation.outputs[0].url;
  video.onloadedmetadata = () => {
    status.textContent = `Completed: ${video.duration.toFixed(1)} s video`;
    button.disabled = false;
  };
}

button.addEventListener('click', () => void generate());
await showWallet();
button.disabled = false;
