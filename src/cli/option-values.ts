// The kinds of option value: how a flag's or variable's text becomes one, and what the config file may hold for it.
import * as z from 'zod';
import { KEY_SHAPE, KEY_SHAPE_RULE } from '../domain/accounts.js';
import { parseDuration } from '../domain/durations.js';
import { TIMING_PROFILES, type TimingProfile } from '../domain/timing.js';

export class CliError extends Error {}

export interface ValueKind<T> {
  /** What the config file may hold under the option's key. */
  schema: z.ZodType<T>;
  /** A flag's or environment variable's text to the value; throws a CliError naming `name` when it is not one. */
  fromText(name: string, text: string): T;
}

/** Text, never empty: an empty value is a mistake (a variable expanded to nothing), not a request for the default. */
export const text: ValueKind<string> = {
  schema: z.string({ error: 'must be text' }).min(1, { error: 'must not be empty' }),
  fromText: (_name, value) => value,
};

const HTTP_URL = 'must be an http:// or https:// URL such as http://localhost:8787';
const isHttpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/** An absolute http(s) URL: anything else would fail only when the first link is signed. */
export const httpUrl: ValueKind<string> = {
  schema: z.string({ error: HTTP_URL }).refine(isHttpUrl, { error: HTTP_URL }),
  fromText(name, value) {
    if (!isHttpUrl(value)) throw new CliError(`${name} ${HTTP_URL}, got "${value}"`);
    return value;
  },
};

const DURATION = 'must be a duration such as "30s", "250ms" or "1h30m", or a number of milliseconds';

function isDuration(value: string | number): boolean {
  try {
    parseDuration(value);
    return true;
  } catch {
    return false;
  }
}

/** A duration as parseDuration reads it (text with units, or milliseconds), of at least `minMs` (and at most `max`). */
export function duration(minMs: number, min: string, max?: { ms: number; text: string }): ValueKind<string | number> {
  const error = max ? `${DURATION}, from ${min} to ${max.text}` : `${DURATION}, at least ${min}`;
  const valid = (value: string | number) => {
    if (!isDuration(value)) return false;
    const ms = parseDuration(value);
    return ms >= minMs && (!max || ms <= max.ms);
  };
  return {
    schema: z.union([z.string(), z.number()], { error }).refine(valid, { error }),
    fromText(name, value) {
      if (!valid(value)) throw new CliError(`${name} ${error}, got "${value}"`);
      return value;
    },
  };
}

/** The seeded key's secret, in the shape every key has (checked here so the refusal names the option). */
export const apiKeySecret: ValueKind<string> = {
  schema: z.string().regex(KEY_SHAPE, { error: KEY_SHAPE_RULE }),
  fromText(name, value) {
    if (!KEY_SHAPE.test(value)) throw new CliError(`${name} ${KEY_SHAPE_RULE}, got "${value}"`);
    return value;
  },
};

// Each schema's messages start with "must", as fromText's do, so a flag, a variable, a config key and an in-process
// option are refused in the same words (option-schema.ts puts the name in front and what was given after).

export function wholeNumber(min = 0, max = Number.MAX_SAFE_INTEGER, note = ''): ValueKind<number> {
  const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
  const error = `must be a whole number ${range}${note}`;
  return {
    schema: z.number({ error }).int({ error }).min(min, { error }).max(max, { error }),
    fromText(name, value) {
      const n = Number(value);
      if (value.trim() === '' || !Number.isSafeInteger(n) || n < min || n > max)
        throw new CliError(`${name} ${error}, got "${value}"`);
      return n;
    },
  };
}

export function oneOf<const T extends string>(values: readonly T[]): ValueKind<T> {
  const error = `must be one of ${values.join(', ')}`;
  return {
    schema: z.enum(values as [T, ...T[]], { error }),
    fromText(name, value) {
      if (!(values as readonly string[]).includes(value)) throw new CliError(`${name} ${error}, got "${value}"`);
      return value as T;
    },
  };
}

export const profile: ValueKind<TimingProfile> = oneOf(TIMING_PROFILES);

export const onOff: ValueKind<boolean> = {
  schema: z.boolean({ error: 'must be true or false' }),
  fromText(name, value) {
    const v = value.trim().toLowerCase();
    if (['on', 'true', '1', 'yes'].includes(v)) return true;
    if (['off', 'false', '0', 'no'].includes(v)) return false;
    throw new CliError(`${name} must be on or off, got "${value}"`);
  },
};

const list = (value: string, lower = false) =>
  value
    .split(',')
    .map((s) => (lower ? s.trim().toLowerCase() : s.trim()))
    .filter(Boolean);

/** A browser's Origin header: scheme and host, no path and no trailing slash (a CORS match is exact). */
const ORIGIN = /^https?:\/\/[^/\s]+$/;
const originItem = z.string().regex(ORIGIN, {
  error: 'must be origins like "http://localhost:5173" (scheme and host; no path, no trailing slash)',
});

/** `*` or a comma-separated list of origins (scheme://host[:port], no path), as a browser sends in `Origin`. */
export const origins: ValueKind<string[] | '*'> = {
  schema: z.union([z.literal('*'), z.array(originItem)], {
    error: 'must be "*" or a list of origins such as ["http://localhost:5173"]',
  }),
  fromText(name, value) {
    const items = list(value).map((s) => s.replace(/\/+$/, ''));
    if (items.includes('*')) return '*';
    for (const item of items)
      if (!ORIGIN.test(item))
        throw new CliError(`${name} must be * or comma-separated origins like http://localhost:5173, got "${item}"`);
    return items;
  },
};

/** Like origins, but `*` is refused: the plane is never open to every page. */
export const controlOrigins: ValueKind<string[]> = {
  schema: z.array(originItem, { error: 'must be a list of origins such as ["http://localhost:5173"]' }),
  fromText(name, value) {
    const items = origins.fromText(name, value);
    if (items === '*')
      throw new CliError(`${name} must list origins explicitly; * would let any web page drive the control plane`);
    return items;
  },
};

/** A Host header's name: a DNS name or an IP address, no port ('*' allows any host). */
const HOST = /^(\*|\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/;

/** Comma-separated host names (no scheme, no port), or `*`. */
export const hosts: ValueKind<string[]> = {
  schema: z.array(
    z.string().regex(HOST, { error: 'must be host names like "devbox.local" or "192.168.1.20" (lower case, no port)' }),
    { error: 'must be a list of host names such as ["devbox.local"]' },
  ),
  fromText(name, value) {
    const items = list(value, true);
    for (const item of items)
      if (!HOST.test(item))
        throw new CliError(
          `${name} must be comma-separated host names like devbox.local or 192.168.1.20 (no port), got "${item}"`,
        );
    return items;
  },
};

/** `slug=profile`, repeatable: one model's timing. */
export const modelProfile: ValueKind<Record<string, TimingProfile>> = {
  schema: z.record(z.string(), profile.schema, { error: 'must be an object of model slug to timing profile' }),
  fromText(name, value) {
    const [slug, given] = value.split('=');
    if (!slug || given === undefined) throw new CliError(`${name} must be SLUG=PROFILE, got "${value}"`);
    return { [slug]: profile.fromText(name, given) };
  },
};

/** A file path, or (in the config file only) the data itself. */
export const fileOrData: z.ZodType<string | Record<string, unknown>> = z.union(
  [text.schema, z.record(z.string(), z.unknown())],
  { error: 'must be a file path or the data itself (an object)' },
);
