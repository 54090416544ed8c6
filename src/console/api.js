// The console's only way out: the control client derived from the registry (control-client.js, which `npm run build`
// bundles), on this origin, with the admin token when one is in force.
import { bodySchema, connect, EmulatorControlError } from './control-client.js';

const TOKEN_KEY = 'media-emulator-admin-token';

/** Local storage: the link the emulator prints (…/console#token=…) is opened once, and the console keeps working after a reload. */
export const adminToken = {
  get: () => localStorage.getItem(TOKEN_KEY) ?? '',
  set: (value) => (value ? localStorage.setItem(TOKEN_KEY, value) : localStorage.removeItem(TOKEN_KEY)),
};

/** Takes `#token=…` out of the address bar (and so out of history and screenshots) and keeps it. */
export function adoptTokenFromUrl() {
  const match = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (!match) return false;
  adminToken.set(decodeURIComponent(match[1]));
  const rest = location.hash.replace(/(^#|&)token=[^&]*/, '$1').replace(/^#&/, '#');
  history.replaceState(null, '', `${location.pathname}${location.search}${rest === '#' ? '' : rest}`);
  return true;
}

const SANDBOX_KEY = 'media-emulator-sandbox';

/** The world this tab shows: '' for the default one, else a sandbox's id (per tab: two tabs may watch two sandboxes). */
export const sandboxChoice = {
  get: () => sessionStorage.getItem(SANDBOX_KEY) ?? '',
  set: (id) => (id ? sessionStorage.setItem(SANDBOX_KEY, id) : sessionStorage.removeItem(SANDBOX_KEY)),
};

let onTokenNeeded = () => {};
/** Called with the error code when the control plane answers 401 admin_token_required or admin_token_invalid. */
export function whenTokenNeeded(callback) {
  onTokenNeeded = callback;
}

/** fetch with the token in force and no cache; a refusal of that token asks for one. */
async function withToken(url, init) {
  const token = adminToken.get();
  const res = await fetch(url, {
    ...init,
    headers: { ...init.headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    cache: 'no-store',
  });
  if (res.status === 401) {
    const code = (
      await res
        .clone()
        .json()
        .catch(() => null)
    )?.error?.code;
    // A refusal of a token that has since been replaced (a refresh sent before the new one was typed) asks for nothing.
    if (/^admin_token_/.test(code ?? '') && adminToken.get() === token) onTokenNeeded(code);
  }
  return res;
}

/** The control client: the same methods as connectEmulator's (docs/control-plane.md). */
// In the chosen sandbox every operation but the lifecycle goes under its prefix (the switcher reloads the page).
export const control = connect(location.origin, { fetch: withToken, sandbox: sandboxChoice.get() || undefined });

/** An error the emulator answered (not one where it could not be reached), with its status, code and problems. */
export const isAnswered = (error) => error instanceof EmulatorControlError && error.status > 0;
export const problemsOf = (error) => (error instanceof EmulatorControlError ? (error.details.problems ?? []) : []);

/** The JSON Schema of an operation's body, as /openapi.json documents it. */
export { bodySchema };

/** A short, readable account of a failed call, for the message next to the control. */
export function describe(error) {
  if (isAnswered(error)) return `${error.message} (${error.status} ${error.code})`;
  return error instanceof Error ? error.message : String(error);
}
