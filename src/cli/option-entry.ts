// What one row of the option table holds, and the builders its rows are written with.
import type * as z from 'zod';
import type { EmulatorOptions } from '../emulator-options.js';
import { onOff, type ValueKind } from './option-values.js';

export interface CliOptions extends EmulatorOptions {
  port: number;
  host: string;
}

export type OptionKey = Exclude<keyof CliOptions, 'log'>;

export interface OptionEntry {
  /** The config file's key, and the field of the options it sets. */
  key: OptionKey;
  /** What the config file may hold under `key`. */
  schema: z.ZodType;
  /** `--name ARG`, read with `parse`; or a switch that `sets` a fixed value. */
  flag?: {
    name: string;
    arg?: string;
    parse?: (name: string, text: string) => unknown;
    sets?: unknown;
    multiple?: boolean;
  };
  /** Variables read in order, a later one winning; `shown` is how --help names it (`NAME=off`); with `help`, a row of its own. */
  env?: { name: string; parse: (name: string, text: string) => unknown; shown?: string; help?: string }[];
  /** The --help line (for an option with a flag or a variable). */
  help?: string;
  /** Objects from the file, the environment and flags are merged key by key rather than replaced. */
  merge?: boolean;
  /** What the CLI uses when no source sets it (in-process defaults are resolveOptions()'s). */
  cliDefault?: unknown;
}

interface Sources {
  /** What the config file may hold, when it is more than the flag's kind (a path, or the data itself). */
  schema?: z.ZodType;
  flag?: string;
  arg?: string;
  env?: string;
  help?: string;
  multiple?: boolean;
  merge?: boolean;
  cliDefault?: unknown;
}

/** An option whose flag and variable both take a value of `kind`. */
export function option<T>(key: OptionKey, kind: ValueKind<T>, s: Sources): OptionEntry {
  return {
    key,
    schema: s.schema ?? kind.schema,
    flag: s.flag ? { name: s.flag, arg: s.arg, parse: kind.fromText, multiple: s.multiple } : undefined,
    env: s.env ? [{ name: s.env, parse: kind.fromText }] : undefined,
    help: s.help,
    merge: s.merge,
    cliDefault: s.cliDefault,
  };
}

/** On by default: `--no-NAME` turns it off, and so does `VARIABLE=off` (`on` turns it back on). */
export function onByDefault(key: OptionKey, flag: string, env: string, help: string): OptionEntry {
  return {
    key,
    schema: onOff.schema,
    flag: { name: flag, sets: false },
    env: [{ name: env, parse: onOff.fromText, shown: `${env}=off` }],
    help,
  };
}

export const configOnly = (key: OptionKey, schema: z.ZodType): OptionEntry => ({ key, schema });
