// Plays rendered bytes in a real <video> or <audio> element to the end, and reads pixels off the shown frame.

/** The element's decoded byte counters (Chromium only; absent elsewhere, so read as 0). */
interface DecodedCounters {
  webkitAudioDecodedByteCount?: number;
  webkitVideoDecodedByteCount?: number;
}

export function pixelOf(video: HTMLVideoElement, [x, y]: [number, number]): [number, number, number] {
  const canvas = new OffscreenCanvas(video.videoWidth, video.videoHeight);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(video, 0, 0);
  const [r, g, b] = ctx.getImageData(x, y, 1, 1).data;
  return [r!, g!, b!];
}

const once = (element: HTMLMediaElement, event: string): Promise<void> =>
  new Promise((resolve, reject) => {
    element.addEventListener(event, () => resolve(), { once: true });
    element.addEventListener(
      'error',
      () => reject(new Error(`media error ${element.error?.code}: ${element.error?.message}`)),
      {
        once: true,
      },
    );
  });

/**
 * Loads the blob, runs `atStart` on the first frame (loadeddata), then plays it through at 8x to 'ended', so the
 * decoded-byte counters cover every track.
 */
export async function playMedia<T>(
  element: HTMLMediaElement,
  blob: Blob,
  atStart: () => Promise<T>,
): Promise<{ duration: number; audioBytes: number; videoBytes: number; pixels: T }> {
  element.preload = 'auto';
  element.src = URL.createObjectURL(blob);
  document.body.append(element);
  try {
    await once(element, 'loadeddata');
    const duration = element.duration;
    const pixels = await atStart();
    element.currentTime = 0;
    element.playbackRate = 8;
    const ended = once(element, 'ended');
    await element.play();
    await ended;
    const counters = element as unknown as DecodedCounters;
    return {
      duration,
      audioBytes: counters.webkitAudioDecodedByteCount ?? 0,
      videoBytes: counters.webkitVideoDecodedByteCount ?? 0,
      pixels,
    };
  } finally {
    URL.revokeObjectURL(element.src);
    element.remove();
  }
}
