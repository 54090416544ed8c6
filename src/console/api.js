// The console's only way out: fetch() to /_emulator/* on this origin, with the admin token when one is in force.
const TOKEN_KEY = 'media-emulator-admin-token';

export class ApiError extends Error {
  constructor(status, code, message, problems) {
    super(message);
    this.status = status;
    this.code = code;
    this.problems = problems ?? [];
  }
}

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

let onTokenNeeded = () => {};
/** Called with the error code when /_emulator/* answers 401 admin_token_required or admin_token_invalid. */
export function whenTokenNeeded(callback) {
  onTokenNeeded = callback;
}

export async function api(path, { method = 'GET', body } = {}) {
  if (!path.startsWith('/_emulator/')) throw new Error(`The console only calls /_emulator/*, not ${path}`);
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = adminToken.get();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const error = data?.error;
    // A refusal of a token that has since been replaced (a refresh sent before the new one was typed) asks for nothing.
    if (res.status === 401 && /^admin_token_/.test(error?.code ?? '') && adminToken.get() === token)
      onTokenNeeded(error.code);
    const detail = Array.isArray(data?.detail) ? data.detail.map((d) => d.msg).join('; ') : undefined;
    throw new ApiError(
      res.status,
      error?.code ?? 'http_error',
      error?.message ?? detail ?? `${res.status} ${res.statusText}`,
      error?.problems,
    );
  }
  return data;
}

/** A short, readable account of a failed call, for the message next to the control. */
export function describe(error) {
  if (error instanceof ApiError) return `${error.message} (${error.status} ${error.code})`;
  return error instanceof Error ? error.message : String(error);
}
