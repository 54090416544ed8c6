// Escaping for values placed inside a -filter_complex graph (paths, expressions), per ffmpeg's two quoting levels.

/**
 * Level 1 is the filter's option parser (`\ ' :` are special); level 2 is the graph parser (`\ ' [ ] , ;`).
 * Escaping both, in that order, lets any path or expression through unchanged, even one with colons or quotes.
 */
export function filterValue(value: string): string {
  const optionLevel = value.replace(/[\\':]/g, '\\$&');
  return optionLevel.replace(/[\\'[\],;]/g, '\\$&');
}

/** `name=value:name=value` with every value escaped; undefined values are left out. */
export function filterOptions(options: Record<string, string | number | undefined>): string {
  return Object.entries(options)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${filterValue(String(v))}`)
    .join(':');
}

/** Seconds as ffmpeg reads them, without float noise like 3.7500000000000004. */
export function seconds(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}
