// The largest id number, sequence or counter a state may hold: what an import accepts and what creating stops at.
import { thousands } from './thousands.js';
/** Far past any session, far below float trouble. */
export const MAX_COUNTER = 2 ** 31 - 1;

/**
 * What an import accepts of a counter the emulator goes on from (ids, sequences): 2^24 below MAX_COUNTER, so the
 * ids created after an import (16.7 million of each) still fit what an import accepts and its export imports back.
 * What the emulator itself writes may go up to MAX_COUNTER: a start from the store of record accepts that.
 */
export const MAX_IMPORTED_COUNTER = MAX_COUNTER - 2 ** 24;

/** Why a counter is refused on an import, said with what is accepted. */
export const IMPORTED_COUNTER_RULE = `must be a whole number from 0 to ${thousands(MAX_IMPORTED_COUNTER)} on an import, which leaves room for the ids created after it`;
