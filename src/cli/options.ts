// Turns flags, environment variables and an optional JSON config file into options (flags > env > file > defaults).
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { readConfigFile } from './config-file.js';
import { helpText } from './help.js';
import { type CliOptions, OPTION_TABLE, type OptionEntry, type OptionKey } from './option-table.js';
import { CliError } from './option-values.js';
import { nearest } from './nearest-name.js';
import { spellings } from './suggest.js';

export { CliError } from './option-values.js';
export type { CliOptions } from './option-table.js';

/** Flags that are no option of the emulator. */
const META_FLAGS = {
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

const FLAGS: NonNullable<ParseArgsConfig['options']> = {
  ...Object.fromEntries(
    OPTION_TABLE.flatMap(({ flag }) =>
      flag
        ? [
            [
              flag.name,
              { type: flag.sets === undefined ? 'string' : 'boolean', ...(flag.multiple ? { multiple: true } : {}) },
            ],
          ]
        : [],
    ),
  ),
  ...META_FLAGS,
};

type Layer = Partial<Record<OptionKey, unknown>>;

function flagSpellings(): Map<string, string> {
  const map = spellings((entry) => (entry.flag ? `--${entry.flag.name}` : undefined));
  for (const name of Object.keys(META_FLAGS)) map.set(name, `--${name}`);
  return map;
}

type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

function parseFlags(argv: string[]): FlagValues {
  // A first, lenient pass names an unknown flag with the nearest known one; node's own message would not.
  const { tokens } = parseArgs({ args: argv, options: FLAGS, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens)
    if (token.kind === 'option' && !Object.hasOwn(FLAGS, token.name)) {
      const hint = nearest(token.name, flagSpellings());
      throw new CliError(
        `unknown option ${token.rawName}${hint ? `; did you mean ${hint}?` : '.'} See --help for every option.`,
      );
    }
  try {
    return parseArgs({ args: argv, options: FLAGS, allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw new CliError(`${(error as Error).message.replace(/\.?$/, '.')} See --help.`);
  }
}

function put(layer: Layer, entry: OptionEntry, value: unknown) {
  if (value === undefined) return;
  layer[entry.key] = entry.merge ? { ...(layer[entry.key] as object), ...(value as object) } : value;
}

function fromEnvironment(env: Record<string, string | undefined>): Layer {
  const layer: Layer = {};
  for (const entry of OPTION_TABLE)
    for (const variable of entry.env ?? []) {
      const text = env[variable.name];
      if (text) put(layer, entry, variable.parse(variable.name, text));
    }
  return layer;
}

function fromFlags(values: FlagValues): Layer {
  const layer: Layer = {};
  for (const entry of OPTION_TABLE) {
    const { flag } = entry;
    const given = flag && values[flag.name];
    if (!flag || given === undefined) continue;
    if (flag.sets !== undefined) {
      if (given === true) put(layer, entry, flag.sets);
      continue;
    }
    for (const text of Array.isArray(given) ? given : [given]) {
      if (typeof text !== 'string') continue;
      // An empty flag is a mistake (`--timing "$UNSET"`), not a request for the default; an empty variable is unset.
      if (text === '') throw new CliError(`--${flag.name} must not be empty; give a value or leave the flag out`);
      put(layer, entry, flag.parse?.(`--${flag.name}`, text));
    }
  }
  return layer;
}

/** `--help` or `--version` when given, after every flag was checked; undefined for a run. */
export function metaCommand(argv: string[]): 'help' | 'version' | undefined {
  const flags = parseFlags(argv);
  return flags.help ? 'help' : flags.version ? 'version' : undefined;
}

export function cliOptions(argv: string[], env: Record<string, string | undefined>): CliOptions | 'help' {
  const flags = parseFlags(argv);
  if (flags.help) return 'help';
  const configPath = (flags.config as string | undefined) || env.MEDIA_EMULATOR_CONFIG;
  const layers: Layer[] = [
    Object.fromEntries(OPTION_TABLE.flatMap((e) => (e.cliDefault === undefined ? [] : [[e.key, e.cliDefault]]))),
    configPath ? readConfigFile(configPath) : {},
    fromEnvironment(env),
    fromFlags(flags),
  ];
  const options: Layer = {};
  for (const entry of OPTION_TABLE) for (const layer of layers) put(options, entry, layer[entry.key]);
  return options as CliOptions;
}

export const HELP = helpText();
