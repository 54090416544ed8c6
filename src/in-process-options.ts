// Checks what an in-process caller passes to startEmulator, createEmulatorApp or createApp, before anything starts.
import { nearest } from './cli/nearest-name.js';
import { describeIssue, IN_PROCESS_SCHEMA, isWrongType, optionIssues } from './cli/option-schema.js';
import { OPTION_TABLE } from './cli/option-table.js';
import { spellings } from './cli/suggest.js';

/** The option table's keys (the config file's, which refuses any other) and the in-process `log`. */
const OPTION_NAMES = new Set<string>([...OPTION_TABLE.map((entry) => entry.key), 'log']);

const WHERE = 'The options are listed in docs/api.md#configuration.';

/**
 * A name that is no option would otherwise start the emulator with the default, silently (`renderer: 'fixture'`
 * rendering with ffmpeg): TypeScript catches it in an object literal, not in plain JavaScript, a spread or a variable.
 * Refused with the nearest name, as the CLI refuses a config key. `port` and `host` are accepted everywhere, so one
 * options object serves all three entry points (where nothing listens they do nothing).
 */
function refuseUnknownOptions(options: object, entry: string): void {
  const unknown = Object.keys(options).filter((name) => !OPTION_NAMES.has(name));
  if (unknown.length === 0) return;
  // Flags and variables spelled as a key ("balance", "api-key") point at the key too.
  const names = spellings((row) => row.key);
  const described = unknown.map((name) => {
    const hint = nearest(name, names);
    return `"${name}"${hint ? ` (did you mean "${hint}"?)` : ''}`;
  });
  throw new TypeError(`${entry}: unknown option ${described.join(', ')}. ${WHERE}`);
}

/**
 * A value of the wrong kind would otherwise fail far from its cause (`port: 'abc'` listens on a socket file named
 * abc, `log: 'x'` throws inside a render) or be ignored (`controlPlane: 'no'` leaves the plane on). The config file's
 * schema, from the same table, refuses it here: a TypeError for the wrong type, a RangeError for a value out of range.
 */
function refuseInvalidValues(options: object, entry: string): void {
  const issues = optionIssues(IN_PROCESS_SCHEMA, options);
  if (issues.length === 0) return;
  const message = `${entry}: option ${issues.map(describeIssue).join('; option ')}. ${WHERE}`;
  throw isWrongType(issues[0]) ? new TypeError(message) : new RangeError(message);
}

/** Throws, naming the option, when `options` holds a name that is no option or a value the option cannot take. */
export function checkInProcessOptions(options: unknown, entry: string): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(
      `${entry}: the options must be an object, got ${options === null ? 'null' : typeof options}. ${WHERE}`,
    );
  refuseUnknownOptions(options, entry);
  refuseInvalidValues(options, entry);
}
