// The largest id number, sequence or counter a state may hold: what an import accepts and what creating stops at.
/** Far past any session, far below float trouble. */
export const MAX_COUNTER = 2 ** 31 - 1;
