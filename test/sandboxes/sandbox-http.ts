// Calls to an emulator's HTTP API for the sandbox tests that run it with a state file, in process or as the CLI.

export async function call(url: string, method: string, path: string, init: { bearer?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { 'Idempotency-Key': `k-${Math.random()}` };
  if (init.bearer) headers.Authorization = `Bearer ${init.bearer}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export const submission = { model_slug: 'motion-lite-v1', prompt: 'a lighthouse at dusk', max_credits: 500 };
