// The clip maker's logic, as a real front end would write it: one Idempotency-Key per order, retries of 429/5xx with
// the same key after Retry-After, polling every poll_after_seconds, and a re-read when a remembered link has expired.
const params = new URLSearchParams(location.search);
const api = `${params.get('api') ?? 'http://127.0.0.1:8787'}/v1/media`;
const key = params.get('key') ?? 'sk-media-local-emulator-key';
/** Tests poll faster than the service's poll_after_seconds; a real app would not pass this. */
const pollMs = params.has('poll') ? Number(params.get('poll')) : undefined;

const $ = (id) => document.getElementById(id);
const headers = { Authorization: `Bearer ${key}` };
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const show = (text, state) => {
  $('status').textContent = text;
  $('status').dataset.state = state;
};

async function submit(prompt) {
  const idempotencyKey = crypto.randomUUID(); // one per order: every retry of this order reuses it
  for (let attempt = 1; attempt <= 5; attempt++) {
    const res = await fetch(`${api}/generations`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt, params: { duration: '4' }, max_credits: 500 }),
    });
    if (res.status === 202) return res.json(); // { generation, poll_after_seconds, ... }
    const body = await res.json().catch(() => ({}));
    if (res.status !== 429 && res.status < 500) throw new Error(body.error?.code ?? `HTTP ${res.status}`);
    const wait = Number(res.headers.get('Retry-After') ?? attempt);
    show(`The service is busy (${res.status}); retrying in ${wait} s with the same key...`, 'retrying');
    await pause(wait * 1000);
  }
  throw new Error('the service stayed unavailable');
}

async function read(id) {
  const res = await fetch(`${api}/generations/${id}`, { headers });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()).generation;
}

async function poll(generation, pollAfterSeconds) {
  while (generation.status === 'pending' || generation.status === 'running') {
    show(`Generation ${generation.id} is ${generation.status}...`, generation.status);
    await pause(pollMs ?? pollAfterSeconds * 1000);
    generation = await read(generation.id);
  }
  return generation;
}

async function showCredits() {
  const res = await fetch(`${api}/usage`, { headers });
  if (res.ok) $('credits').textContent = `Balance: ${(await res.json()).wallet_balance} credits`;
}

/** The last clip is remembered, as apps do, so it shows again on the next visit: possibly after its link expired. */
function play(generation) {
  localStorage.setItem(
    'last-clip',
    JSON.stringify({ id: generation.id, outputs: [{ url: generation.outputs[0].url }] }),
  );
  const player = $('player');
  player.dataset.generationId = generation.id;
  player.src = generation.outputs[0].url;
  player.hidden = false;
}

// A signed link lasts about an hour; when it has expired the file answers 403, and a fresh read signs a new one.
$('player').addEventListener('error', async () => {
  const id = $('player').dataset.generationId;
  if (!id) return;
  show('The link expired; fetching a fresh one...', 'refreshing');
  const generation = await read(id);
  play(generation);
  show(`Done: ${generation.id} (link refreshed).`, 'completed');
});

$('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('generate').disabled = true;
  $('player').hidden = true;
  try {
    const accepted = await submit($('prompt').value);
    $('status').dataset.generationId = accepted.generation.id;
    const done = await poll(accepted.generation, accepted.poll_after_seconds ?? 5);
    if (done.status === 'failed') {
      show(`Failed: ${done.error?.code ?? 'unknown'} (billing: ${done.billing_status}).`, 'failed');
    } else {
      play(done);
      show(`Done: ${done.id}.`, 'completed');
    }
  } catch (error) {
    show(`Could not generate: ${error.message}.`, 'error');
  } finally {
    $('generate').disabled = false;
    await showCredits();
  }
});

const last = JSON.parse(localStorage.getItem('last-clip') ?? 'null');
if (last) {
  play(last);
  show(`Last clip: ${last.id}.`, 'completed');
}
