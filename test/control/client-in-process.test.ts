// The shared control-client contract against the in-process client of startEmulator().
import { startSharedEmulator } from '../helpers/emulator.js';
import { CONTRACT_OPTIONS, controlClientContract } from './client-contract.js';

controlClientContract('in-process', () => startSharedEmulator({ ...CONTRACT_OPTIONS }));
