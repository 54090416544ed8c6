// Both control clients, the routes and the document expose exactly the registry's operations: no more, no fewer.
import { describe, expect, it } from 'vitest';
import { connectEmulator } from '../../src/index.js';
import { emulatorOpenApiDocument } from '../../src/emulation/openapi/contribution.js';
import { CLIENT_BINDINGS } from '../../src/emulation/registry/client-bindings.js';
import { CONTROL_OPERATIONS } from '../../src/emulation/registry/registry.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { controlled } from '../helpers/controlled-emulator.js';

/** `faults.add`, `scenario.load`, `now`...: a client's methods, groups flattened. */
function methodNames(client: object, prefix = ''): string[] {
  return Object.entries(client).flatMap(([name, value]) =>
    typeof value === 'function' ? [`${prefix}${name}`] : methodNames(value as object, `${prefix}${name}.`),
  );
}

/** Each binding's method name with the operation it calls. */
function boundOperations(bindings: object, prefix = ''): [string, string][] {
  return Object.entries(bindings).flatMap(([name, value]) =>
    'op' in value ? [[`${prefix}${name}`, String(value.op)]] : boundOperations(value, `${prefix}${name}.`),
  );
}

const bound = boundOperations(CLIENT_BINDINGS);
const clientMethods = [...bound.map(([method]) => method), 'setBaseUrl'].sort();

/** Operations that read their body with a code of their own (invalid_fault_rule, invalid_scenario, invalid_state). */
const OWN_PARSE = ['addFault', 'importState', 'loadScenario'];

describe('the registry of control operations', () => {
  it('parses every declared body and query before its handler, but where the operation has a parse of its own', () => {
    const unnamed = Object.entries(CONTROL_OPERATIONS)
      .filter(([, op]) => (op.body !== undefined || op.query !== undefined) && !('input' in op && op.input))
      .map(([id]) => id);
    // A new operation with a body or query names its `input`, or joins OWN_PARSE knowingly: without either, its
    // handler would receive what was sent, unchecked.
    expect(unnamed.sort()).toEqual(OWN_PARSE);
  });

  it('is called by the client methods, every operation by at least one', () => {
    expect([...new Set(bound.map(([, op]) => op))].sort()).toEqual(Object.keys(CONTROL_OPERATIONS).sort());
  });

  it('gives the in-process and the remote client the same methods, those of the bindings', () => {
    expect(methodNames(controlled().control).sort()).toEqual(clientMethods);
    expect(methodNames(connectEmulator('http://127.0.0.1:9')).sort()).toEqual(clientMethods);
  });

  it('is what the document lists under the Control tag, method, path and operationId alike', () => {
    const documented = Object.entries(emulatorOpenApiDocument().paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => (op.tags as string[]).includes('Control'))
        .map(([method, op]) => `${method} ${path} ${String(op.operationId)}`),
    );
    const declared = Object.entries(CONTROL_OPERATIONS).map(
      ([id, op]) => `${op.method} ${op.path.replace(/:(\w+)/g, '{$1}')} ${id}`,
    );
    expect(documented.sort()).toEqual(declared.sort());
  });

  it("sends each remote call to its operation's method and path", async () => {
    const running = await startTestEmulator({ ffmpegPath: false });
    const [seeded] = await running.control.accounts();
    const sent: string[] = [];
    const control = connectEmulator(running.url, {
      fetch: (input, init) => {
        sent.push(`${init?.method} ${new URL(String(input)).pathname}`);
        return fetch(input, init);
      },
    });
    await control.faults.disable('nope').catch(() => undefined);
    await control.journalEntry(7).catch(() => undefined);
    await control.setBalance(5);
    expect(sent).toEqual([
      'PATCH /_emulator/faults/nope',
      'GET /_emulator/journal/7',
      'GET /_emulator/api-key',
      `POST /_emulator/accounts/${seeded.id}/balance`,
    ]);
  });
});
