// Caps V8's heap growth before anything else loads: an emulator shares a laptop with the app it serves.
import { setFlagsFromString } from 'node:v8';

// By default V8 lets the old generation grow up to about 4x past live data between full collections; under a flood of
// submissions most of that is dead requests. 1.5x keeps peak RSS near what is kept (15,000 submissions: 270 -> 186 MB)
// for a few percent more CPU per request; --optimize-for-size saved more memory but cost 50-80% more CPU.
// In-process users (startEmulator) keep their own process's settings.
setFlagsFromString('--heap-growing-percent=50');
