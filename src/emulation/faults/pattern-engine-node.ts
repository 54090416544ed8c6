// Node's pattern engine: re2js imported statically, so every emulator composed in Node compiles patterns at once.
import { RE2JS } from 're2js';
import { usePatternEngine } from './fault-patterns.js';

usePatternEngine(RE2JS);
