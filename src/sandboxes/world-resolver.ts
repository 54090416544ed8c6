// The front door's world lookup: a public request's world by its API key, a control request's by path or token, a download's by its link.
import { controlTokenOf } from '../emulation/admin/plane-guard.js';
import { PlaneError } from '../emulation/error-codes.js';
import type { ServiceRequest } from '../http/exchange.js';
import type { World, WorldResolution } from '../http/world.js';
import type { SandboxEntry, SandboxRegistry } from './sandbox-registry.js';

const PLANE = '/_emulator/';
const SANDBOXES = '/_emulator/sandboxes';
/** `/_emulator/sandboxes/{id}` and what follows it (the operation inside that sandbox). */
const SANDBOX_PATH = /^\/_emulator\/sandboxes\/([A-Za-z0-9_]+)(\/.*)?$/;
const BEARER = /^Bearer\s+(\S+)\s*$/i;

const forbidden = () =>
  new PlaneError(
    'sandbox_token_forbidden',
    "A sandbox's control token reaches that sandbox only (its /_emulator/* operations): use the admin token for another sandbox or for the instance-wide operations.",
  );

const unknownToken = () =>
  new PlaneError(
    'admin_token_invalid',
    'This sandbox token belongs to no live sandbox: it was deleted or expired after its idle TTL. Create a new one with POST /_emulator/sandboxes.',
  );

const notFound = (id: string) =>
  new PlaneError(
    'sandbox_not_found',
    `No sandbox '${id}': it never existed, was deleted, or expired after its idle TTL. Create one with POST /_emulator/sandboxes.`,
  );

/**
 * The world of each request: the default one unless it names a live sandbox. With no sandbox alive every request takes
 * the default world after one size check.
 */
export function worldResolver(defaultWorld: World, registry: SandboxRegistry) {
  const inside = (entry: SandboxEntry, resolution: Omit<WorldResolution, 'world'> = {}): WorldResolution => {
    registry.touch(entry);
    return { world: entry.built.world, ...resolution };
  };

  const control = (request: ServiceRequest): World | WorldResolution => {
    const token = controlTokenOf(request.headers);
    const bearer = token?.startsWith('sbt_') ? registry.byToken(token) : undefined;
    if (token?.startsWith('sbt_') && !bearer) return { world: defaultWorld, refusal: unknownToken() };
    const { path } = request;
    const named = SANDBOX_PATH.exec(path);
    if (named) {
      const [, id, rest] = named;
      const entry = registry.find(id);
      const itself = rest === undefined || rest === '/';
      // The operation the request names: the sandbox's own (read, delete), or one inside it; refusals are its answers.
      const inner = itself ? path : `/_emulator${rest}`;
      if (bearer && bearer.id !== id) return { world: defaultWorld, refusal: forbidden(), path: inner };
      if (!entry) return { world: defaultWorld, refusal: notFound(id), path: inner };
      // The lifecycle is the instance's: not reachable from inside a sandbox.
      if (!itself && (inner === SANDBOXES || inner.startsWith(`${SANDBOXES}/`)))
        return { world: defaultWorld, refusal: forbidden(), path: inner };
      return inside(entry, { ownToken: bearer !== undefined, path: inner });
    }
    if (!bearer) return defaultWorld;
    if (path === SANDBOXES || path.startsWith(`${SANDBOXES}/`)) return { world: defaultWorld, refusal: forbidden() };
    return inside(bearer, { ownToken: true });
  };

  return (request: ServiceRequest): World | WorldResolution => {
    if (registry.size === 0) {
      // Nothing to find; a sandbox's token or path still gets its refusal rather than the default world.
      return request.path.startsWith(PLANE) ? control(request) : defaultWorld;
    }
    const { path } = request;
    if (path.startsWith(PLANE)) return control(request);
    if (path.startsWith('/files/')) {
      const named = request.query.sandbox;
      const entry = typeof named === 'string' ? registry.find(named) : undefined;
      // An unknown sandbox's link is verified by the default world, whose secret refuses it (403) like any forgery.
      return entry ? inside(entry) : defaultWorld;
    }
    const auth = request.headers.authorization;
    const secret = typeof auth === 'string' ? BEARER.exec(auth)?.[1] : undefined;
    if (secret === undefined || defaultWorld.runtime.context().accounts.holdsSecret(secret)) return defaultWorld;
    const entry = registry.byKey(secret);
    return entry ? inside(entry) : defaultWorld;
  };
}
