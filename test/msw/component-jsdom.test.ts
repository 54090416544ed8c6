// @vitest-environment jsdom
// A component test as a front end writes one: a small widget in jsdom, its fetch answered by the msw pack under
// setupServer: it shows the wallet, submits, shows the 402 the emulator's rules answer, and the completed generation.
import { findByText, getByRole, waitFor } from '@testing-library/dom';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMediaHandlers, type MediaHandlers } from '../../src/msw/node.js';
import { MODEL_A } from '../helpers/emulator.js';

const API = 'http://api.example.test';

/** The few DOM members the widget uses (tsconfig.json has no DOM library: the suite's code is Node's). */
interface Element_ {
  innerHTML: string;
  textContent: string | null;
  value: string;
  dataset: Record<string, string | undefined>;
  querySelector(selector: string): Element_ | null;
  addEventListener(type: string, listener: () => void): void;
  click(): void;
}
const dom = () => globalThis as unknown as { document: { body: Element_ } };

/** The component under test: a wallet line, a prompt box and a button; status lines as the API answers. */
function mountGenerator(root: Element_, apiKey: string): void {
  root.innerHTML = `<p data-wallet>…</p><input aria-label="prompt" value="a fox"><button>Generate</button><p role="status"></p>`;
  const status = root.querySelector('[role=status]') as Element_;
  const wallet = root.querySelector('[data-wallet]') as Element_;
  let reads = 0;
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
  const showWallet = async () => {
    const usage = (await (await fetch(`${API}/v1/media/usage`, { headers })).json()) as { wallet_balance: number };
    wallet.textContent = `Wallet: ${usage.wallet_balance} credits`;
    wallet.dataset.reads = String(++reads);
  };
  void showWallet();
  let attempt = 0;
  root.querySelector('button')?.addEventListener('click', async () => {
    const prompt = (root.querySelector('input') as Element_).value;
    const response = await fetch(`${API}/v1/media/generations`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': `widget-attempt-${++attempt}` },
      body: JSON.stringify({ model_slug: MODEL_A, prompt, max_credits: 100_000 }),
    });
    const body = (await response.json()) as { generation?: { id: string; status: string }; error?: { code: string } };
    status.textContent = body.error ? `Refused: ${body.error.code}` : `Generation ${body.generation?.status}`;
    await showWallet();
  });
}

describe('a component in jsdom against setupServer', () => {
  const server = setupServer();
  let pack: MediaHandlers | undefined;
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(async () => {
    server.resetHandlers();
    await pack?.close();
    dom().document.body.innerHTML = '';
  });
  afterAll(() => server.close());

  it('runs in jsdom, submits and shows the charge in the wallet', async () => {
    const { body } = dom().document;
    pack = await createMediaHandlers({ baseUrl: API, seed: 1, timing: 'manual', initialBalance: 500 });
    server.use(...pack.handlers);
    mountGenerator(body, pack.apiKey);
    const wallet = body.querySelector('[data-wallet]') as Element_;
    await waitFor(() => expect(wallet.dataset.reads).toBe('1'));
    expect(wallet.textContent).toBe('Wallet: 500 credits');
    getByRole(body as never, 'button').click();
    await findByText(body as never, 'Generation pending');
    await waitFor(() => expect(wallet.dataset.reads).toBe('2'));
    expect(Number(/\d+/.exec(wallet.textContent ?? '')?.[0])).toBeLessThan(500);
  });

  it('shows the 402 the wallet answers when the balance is short, and charges nothing', async () => {
    pack = await createMediaHandlers({ baseUrl: API, seed: 1, timing: 'manual', initialBalance: 3 });
    server.use(...pack.handlers);
    const { body } = dom().document;
    mountGenerator(body, pack.apiKey);
    const wallet = body.querySelector('[data-wallet]') as Element_;
    await waitFor(() => expect(wallet.dataset.reads).toBe('1'));
    getByRole(body as never, 'button').click();
    await findByText(body as never, 'Refused: insufficient_credits');
    await waitFor(() => expect(wallet.dataset.reads).toBe('2'));
    expect(wallet.textContent).toBe('Wallet: 3 credits');
  });
});
