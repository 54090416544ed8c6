// `npm start`: builds only when dist/ is stale, then runs the CLI in this same process (one PID to stop).
// @ts-check
import { pathToFileURL } from 'node:url';
import { BUILT_CLI, ensureBuild } from './ensure-build.mjs';

ensureBuild();
await import(pathToFileURL(BUILT_CLI).href);
