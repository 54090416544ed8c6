// The shipped fallback files (fixtures/), fetched by the browser when it cannot encode an output itself.

export type FallbackName = 'fallback.mp4' | 'fallback.png' | 'fallback.m4a';

/** How the renderer gets a fallback file's bytes; the default fetches it from the package's fixtures/ folder. */
export type LoadFallback = (name: FallbackName) => Promise<Uint8Array>;

/**
 * fixtures/ is three folders above this module both in src/ and in dist/; literal `new URL(…, import.meta.url)` calls,
 * so a bundler (Vite, webpack, esbuild with a loader) can see the files and copy them.
 */
const FALLBACK_URLS: Record<FallbackName, () => URL> = {
  'fallback.mp4': () => new URL('../../../fixtures/fallback.mp4', import.meta.url),
  'fallback.png': () => new URL('../../../fixtures/fallback.png', import.meta.url),
  'fallback.m4a': () => new URL('../../../fixtures/fallback.m4a', import.meta.url),
};

/** What each fallback is, for the warning: the ffmpeg renderer's fixtures, made once with ffmpeg. */
export const FALLBACK_DESCRIPTIONS: Record<FallbackName, string> = {
  'fallback.mp4': 'a 4 s 854x480 H.264 clip without sound',
  'fallback.png': 'a 512x512 PNG',
  'fallback.m4a': 'a 5 s AAC clip',
};

export const fetchFallback: LoadFallback = async (name) => {
  const url = FALLBACK_URLS[name]();
  const response = await fetch(url);
  if (!response.ok)
    throw new Error(
      `the fallback file ${url.href} answered ${response.status}; serve fixtures/ with the page or pass loadFallback`,
    );
  return new Uint8Array(await response.arrayBuffer());
};
