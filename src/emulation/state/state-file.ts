// --state-file: load the exported state at start when the file exists, write it on exit (written atomically via a temp file).
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { DomainError } from '../../domain/errors.js';
import type { Control } from '../client.js';

/** True when a state was loaded; false when the file does not exist yet (a first run). */
export async function loadStateFile(control: Control, path: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new DomainError('invalid_state', `State file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    await control.importState(data as Parameters<Control['importState']>[0]);
  } catch (error) {
    throw new DomainError('invalid_state', `State file ${path}: ${(error as Error).message}`);
  }
  return true;
}

export async function saveStateFile(control: Control, path: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(await control.exportState()));
  await rename(temporary, path);
}
