// The shared control-client contract, run inside a sandbox that is not the default world, with both clients.
import { connectEmulator } from '../../src/index.js';
import { CONTRACT_OPTIONS, controlClientContract } from '../control/client-contract.js';
import { startSharedEmulator } from '../helpers/emulator.js';

/** A sandbox beside a busy default world: the contract must see nothing of the default world's state. */
async function sandboxed(remote: boolean) {
  const running = await startSharedEmulator({ ...CONTRACT_OPTIONS });
  await running.control.setBalance(3);
  await running.control.faults.add({
    match: { method: 'get', route: '/v1/media/models' },
    action: { type: 'status', status: 500 },
  });
  const sandbox = remote
    ? await connectEmulator(running.url).createSandbox({ label: 'contract' })
    : await running.control.createSandbox({ label: 'contract' });
  if (!remote) sandbox.control.setBaseUrl(running.url);
  return { url: running.url, apiKey: sandbox.apiKey, control: sandbox.control, close: running.close };
}

controlClientContract('in-process sandbox', () => sandboxed(false));
controlClientContract('remote sandbox', () => sandboxed(true));
