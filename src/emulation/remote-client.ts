// The typed control client over HTTP: the same `Control` as in-process, for tests in another process (CLI, Docker).
import { readFile } from 'node:fs/promises';
import type { Control } from './client.js';
import type { EmulatorState } from './state/emulator-state.js';
import type {
  JournalEntryDetailView,
  AccountView,
  AdminGenerationView,
  FaultView,
  JournalEntryView,
  KeyView,
  LedgerEntryView,
  ScenarioProgress,
} from './views.js';

export interface ConnectOptions {
  /** The emulator's EMULATOR_ADMIN_TOKEN, when it was started with one; sent as `Authorization: Bearer`. */
  adminToken?: string;
  /** Another fetch (a proxy agent, a recording wrapper); default: the global fetch. */
  fetch?: typeof fetch;
}

/** A refused control call: the emulator's `error.code` and message, with the HTTP status and the envelope's details. */
export class EmulatorControlError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'EmulatorControlError';
  }
}

type Query = Record<string, string | number | Date | undefined>;

function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {}))
    if (value !== undefined) params.set(name, value instanceof Date ? value.toISOString() : String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Names of scenarios in fixtures/scenarios/ are bare words; anything else is a file the client reads itself. */
const isScenarioFile = (name: string) => /[/\\]|\.json$/i.test(name);

/** Read on the client's side; refused like the in-process client refuses it, with status 0 (no request was sent). */
async function readScenarioFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EmulatorControlError(
      'scenario_not_found',
      `No scenario file at ${path} (${(error as NodeJS.ErrnoException).code}). Pass a scenario name, an existing file or an object.`,
      0,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EmulatorControlError('invalid_scenario', `${path} is not JSON: ${(error as Error).message}`, 0);
  }
}

/** X-Forwarded-* headers make the emulator sign output links for `url`, as setBaseUrl does in-process. */
function forwardedHeaders(url: string | undefined): Record<string, string> {
  if (!url) return {};
  const parsed = new URL(url);
  const prefix = parsed.pathname.replace(/\/+$/, '');
  return {
    'X-Forwarded-Proto': parsed.protocol.replace(/:$/, ''),
    'X-Forwarded-Host': parsed.host,
    ...(prefix ? { 'X-Forwarded-Prefix': prefix } : {}),
  };
}

/**
 * Connects to a running emulator (CLI, Docker, another process) at `url`, e.g. `http://127.0.0.1:8787`.
 * Nothing is sent until the first call; a refused call rejects with an EmulatorControlError carrying `code`.
 */
export function connectEmulator(url: string, options: ConnectOptions = {}): Control {
  const base = url.replace(/\/+$/, '');
  const send = options.fetch ?? fetch;
  let linkBase: string | undefined;

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', ...forwardedHeaders(linkBase) };
    if (options.adminToken) headers.Authorization = `Bearer ${options.adminToken}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await send(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new EmulatorControlError(
        'emulator_unreachable',
        `Could not reach the emulator at ${base} (${(error as Error).message}). Is it running, and is the URL right?`,
        0,
      );
    }
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (res.ok) return parsed as T;
    const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
    if (error?.code) {
      const { code, message, ...details } = error as Record<string, unknown>;
      throw new EmulatorControlError(String(code), String(message ?? code), res.status, details);
    }
    throw new EmulatorControlError(
      'unexpected_response',
      `${method} ${path} answered ${res.status} without an error envelope: ${text.slice(0, 200)}`,
      res.status,
    );
  }

  const post = <T>(path: string, body?: unknown) => call<T>('POST', path, body);
  const get = <T>(path: string) => call<T>('GET', path);
  const generationPath = (id: string, action = '') => `/_emulator/generations/${encodeURIComponent(id)}${action}`;
  const unwrap = async <K extends string, T>(answer: Promise<Record<K, T>>, key: K) => (await answer)[key];

  /** The seeded account is the first one the emulator lists, as in-process calls default to it. */
  async function accountOf(accountId: string | undefined): Promise<string> {
    if (accountId) return accountId;
    const accounts = await unwrap(get<{ accounts: AccountView[] }>('/_emulator/accounts'), 'accounts');
    if (!accounts[0]) throw new EmulatorControlError('account_not_found', 'The emulator lists no account.', 404);
    return accounts[0].id;
  }
  const balance = async (change: { set: number } | { add: number }, accountId?: string) =>
    post<{ account_id: string; balance: number }>(
      `/_emulator/accounts/${encodeURIComponent(await accountOf(accountId))}/balance`,
      change,
    );

  return {
    now: async () => new Date((await get<{ now: string }>('/_emulator/clock')).now),
    clock: () => get('/_emulator/clock'),
    advance: (by) => post('/_emulator/clock/advance', { by }),
    advanceToNext: () => post('/_emulator/clock/advance-to-next'),
    freeze: () => post('/_emulator/clock/freeze'),
    unfreeze: () => post('/_emulator/clock/unfreeze'),
    accounts: () => unwrap(get<{ accounts: AccountView[] }>('/_emulator/accounts'), 'accounts'),
    setBalance: (amount, accountId) => balance({ set: amount }, accountId),
    topUp: (amount, accountId) => balance({ add: amount }, accountId),
    apiKey: () => unwrap(get<{ api_key: string }>('/_emulator/api-key'), 'api_key'),
    keys: () => unwrap(get<{ keys: KeyView[] }>('/_emulator/keys'), 'keys'),
    createKey: (key) => unwrap(post<{ key: KeyView }>('/_emulator/keys', key ?? {}), 'key'),
    revokeKey: (id) => unwrap(post<{ key: KeyView }>(`/_emulator/keys/${id}/revoke`), 'key'),
    timing: () => get('/_emulator/timing'),
    setTiming: (change) => call('PUT', '/_emulator/timing', change),
    generations: (query) =>
      unwrap(get<{ generations: AdminGenerationView[] }>(`/_emulator/generations${queryString(query)}`), 'generations'),
    generation: (id) => unwrap(get<{ generation: AdminGenerationView }>(generationPath(id)), 'generation'),
    complete: (id) => unwrap(post<{ generation: AdminGenerationView }>(generationPath(id, '/complete')), 'generation'),
    fail: (id, failure) =>
      unwrap(post<{ generation: AdminGenerationView }>(generationPath(id, '/fail'), failure ?? {}), 'generation'),
    refund: (id, amount) => post(generationPath(id, '/refund'), amount === undefined ? {} : { amount }),
    detail: (id) => get(generationPath(id, '/detail')),
    expireLinks: (id) => post(generationPath(id, '/expire-links')),
    ledger: (query) => unwrap(get<{ entries: LedgerEntryView[] }>(`/_emulator/ledger${queryString(query)}`), 'entries'),
    waitFor: (id, target, waitOptions = {}) =>
      unwrap(
        post<{ generation: AdminGenerationView }>(generationPath(id, '/wait'), { target, ...waitOptions }),
        'generation',
      ),
    faults: {
      add: (rule) => unwrap(post<{ fault: FaultView }>('/_emulator/faults', rule), 'fault'),
      list: () => unwrap(get<{ faults: FaultView[] }>('/_emulator/faults'), 'faults'),
      remove: (id) =>
        unwrap(call<{ faults: FaultView[] }>('DELETE', `/_emulator/faults/${encodeURIComponent(id)}`), 'faults'),
      clear: () => unwrap(call<{ faults: FaultView[] }>('DELETE', '/_emulator/faults'), 'faults'),
      enable: (id) =>
        unwrap(
          call<{ fault: FaultView }>('PATCH', `/_emulator/faults/${encodeURIComponent(id)}`, { enabled: true }),
          'fault',
        ),
      disable: (id) =>
        unwrap(
          call<{ fault: FaultView }>('PATCH', `/_emulator/faults/${encodeURIComponent(id)}`, { enabled: false }),
          'fault',
        ),
    },
    scenario: {
      load: async (scenario) => {
        // The emulator never reads a path sent over HTTP, so a scenario file is read here and sent inline.
        const body =
          typeof scenario !== 'string'
            ? { scenario }
            : isScenarioFile(scenario)
              ? { scenario: await readScenarioFile(scenario) }
              : { name: scenario };
        return unwrap(post<{ active: ScenarioProgress }>('/_emulator/scenarios', body), 'active');
      },
      progress: () => unwrap(get<{ active: ScenarioProgress | null }>('/_emulator/scenarios/active'), 'active'),
      unload: () => unwrap(call<{ active: null }>('DELETE', '/_emulator/scenarios/active'), 'active'),
      available: () => unwrap(get<{ available: string[] }>('/_emulator/scenarios'), 'available'),
    },
    journal: (query) =>
      unwrap(get<{ entries: JournalEntryView[] }>(`/_emulator/journal${queryString({ ...query })}`), 'entries'),
    journalEntry: (id) => unwrap(get<{ entry: JournalEntryDetailView }>(`/_emulator/journal/${id}`), 'entry'),
    clearJournal: () => call('DELETE', '/_emulator/journal'),
    summary: (query) => get(`/_emulator/summary${queryString({ ...query })}`),
    catalogue: () => get('/_emulator/catalogue'),
    reset: async () => {
      await post('/_emulator/reset');
    },
    exportState: () => get<EmulatorState>('/_emulator/state'),
    importState: async (state) => {
      await call('PUT', '/_emulator/state', state);
    },
    setBaseUrl: (next) => {
      linkBase = next;
    },
  };
}
