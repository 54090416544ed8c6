// Lets a timer not hold the process open: Node's timers would, until they fire; a browser's are plain numbers.

export function unref(timer: unknown): void {
  (timer as { unref?: () => void } | undefined)?.unref?.();
}
