// Emulator-only routes that are not the control plane proper: health, the console page and this document.
import { json, ref, type OperationSpec } from '../../openapi/operation.js';

/** A file served as text (a page, a script, a style): its body is a string. */
const TEXT = { schema: { type: 'string' } };

/** None of them needs the admin token (the Host allow-list still applies to health and the console). */
export function emulatorOperations(): OperationSpec[] {
  const ops: Omit<OperationSpec, 'tag' | 'auth'>[] = [
    {
      method: 'get',
      path: '/_emulator/health',
      operationId: 'health',
      summary: 'Readiness and status',
      description:
        'Never needs a token. `status` is `starting` until the renderer is ready. Like the whole plane, refused to a Host outside the allow-list.',
      responses: { 200: json(ref('Health'), 'Status of the renderer, timing and clock.') },
      errors: ['host_not_allowed'],
    },
    {
      method: 'get',
      path: '/openapi.json',
      operationId: 'openapi',
      summary: 'This document',
      description: "Error statuses reflect the running emulator's `errorStatuses` overrides.",
      responses: { 200: json({ type: 'object' }, 'The OpenAPI 3.1 document.') },
      errors: [],
    },
    {
      method: 'get',
      path: '/_emulator/console',
      operationId: 'console',
      summary: 'The console page',
      description:
        'A browser page over the control plane: balances, generations, the journal, faults and scenarios. Its calls need the admin token when one is set.',
      responses: { 200: { description: 'The HTML page.', content: { 'text/html': TEXT } } },
      errors: ['host_not_allowed'],
    },
    {
      method: 'get',
      path: '/_emulator/console/{asset}',
      operationId: 'consoleAsset',
      summary: "The console's script and style",
      description: 'Static files the console page loads; an unknown name is 404 `route_not_found`.',
      parameters: [{ name: 'asset', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        200: {
          description: 'A static file of the console.',
          content: Object.fromEntries(
            ['text/javascript', 'application/javascript', 'text/css', 'text/html'].map((type) => [type, TEXT]),
          ),
        },
      },
      errors: ['route_not_found'],
    },
  ];
  return ops.map((op) => ({ ...op, tag: 'Emulator', auth: 'none' }));
}
