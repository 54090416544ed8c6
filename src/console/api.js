// The console's only way out: fetch() to /_emulator/* and /v1/media on this origin, with the admin token if one is needed.
const TOKEN_KEY = 'media-emulator-admin-token';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Session storage, not local: the token leaves with the tab, as a password would. */
export const adminToken = {
  get: () => sessionStorage.getItem(TOKEN_KEY) ?? '',
  set: (value) => (value ? sessionStorage.setItem(TOKEN_KEY, value) : sessionStorage.removeItem(TOKEN_KEY)),
};

let onTokenNeeded = () => {};
/** Called when /_emulator/* answers 401: the emulator has EMULATOR_ADMIN_TOKEN set and ours is missing or wrong. */
export function whenTokenNeeded(callback) {
  onTokenNeeded = callback;
}

export async function api(path, { method = 'GET', body, bearer } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  else if (adminToken.get()) headers['X-Emulator-Admin-Token'] = adminToken.get();
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
  if (res.status === 401 && path.startsWith('/_emulator/')) onTokenNeeded();
  if (!res.ok) {
    const error = data?.error;
    const detail = Array.isArray(data?.detail) ? data.detail.map((d) => d.msg).join('; ') : undefined;
    throw new ApiError(
      res.status,
      error?.code ?? 'http_error',
      error?.message ?? detail ?? `${res.status} ${res.statusText}`,
    );
  }
  return data;
}

/** A short, readable account of a failed call, for the alert region. */
export function describe(error) {
  if (error instanceof ApiError) return `${error.message} (${error.status} ${error.code})`;
  return error instanceof Error ? error.message : String(error);
}
