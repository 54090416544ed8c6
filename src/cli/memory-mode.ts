// Puts V8 in its memory-saving mode before anything else loads: an emulator shares a laptop with the app it serves.
import { setFlagsFromString } from 'node:v8';

// Measured in issue 10's 40 s soak: peak RSS roughly halves for the same submissions, with no throughput loss in
// `npm run bench`. In-process users (startEmulator) keep their own process's settings.
setFlagsFromString('--optimize-for-size');
