// What only the emulation plane reads from the emulator's options, and their defaults: the core's options never name them.
import { isLoopbackHost, type ResolvedOptions } from '../config.js';

export interface PlaneOptions {
  /**
   * When set, every /_emulator/* call (except health and the console page) needs this token. Unset: open on loopback,
   * and a random token is generated when listen() binds a non-loopback address. `false`: open even then (warned).
   */
  adminToken?: string | false;
  /** Extra Host names (no port) that may reach /_emulator/* and the console, besides loopback and the public URL's host; `*` allows any. */
  allowedHosts?: string[];
  /** Origins a browser page may drive /_emulator/* from (CORS); default none. The public API's CORS is `corsOrigins`. */
  controlCorsOrigins?: string[];
  /** false: no /_emulator/* routes except health (the in-process `control` client still works). Default true. */
  controlPlane?: boolean;
  /** `[emulator:...]` markers in prompts script outcomes; false treats them as plain text. Default true. */
  magicPrompts?: boolean;
}

export type ResolvedPlaneOptions = Required<Omit<PlaneOptions, 'adminToken'>> & Pick<PlaneOptions, 'adminToken'>;

/** The options an emulator runs with, defaults filled in: the core's and the plane's (what its operations read). */
export type PlaneSettings = ResolvedOptions & ResolvedPlaneOptions;

export function resolvePlaneOptions(options: PlaneOptions): ResolvedPlaneOptions {
  return {
    adminToken: options.adminToken === false ? false : options.adminToken || undefined,
    allowedHosts: (options.allowedHosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean),
    controlCorsOrigins: options.controlCorsOrigins ?? [],
    controlPlane: options.controlPlane ?? true,
    magicPrompts: options.magicPrompts ?? true,
  };
}

/**
 * The admin token in force once bound to `host`: the configured one; else, beyond loopback with the plane on, a fresh
 * random one (anyone on the network could otherwise read key secrets); else none. `false` opts out explicitly.
 */
export function tokenForBinding(
  host: string,
  configured: string | false | undefined,
  controlPlane: boolean,
  generate: () => string,
): string | undefined {
  if (configured) return configured;
  if (configured === false || !controlPlane || isLoopbackHost(host)) return undefined;
  return generate();
}
