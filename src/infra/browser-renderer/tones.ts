// The sounds the ffmpeg renderer makes, as PCM samples: a video's tone with a beep each second, and the music melody.

/** ffmpeg's sine filter with beep_factor 2: the beep is twice the tone's pitch, for the first 1/25 of every second. */
const BEEP_FACTOR = 2;
const BEEP_SHARE = 1 / 25;
const TONE_LEVEL = 0.125;

/** A video's audio track (video-plan.ts): the output's tone, with a beep at each whole second. */
export function toneSamples(toneHz: number, sampleRate: number, seconds: number): Float32Array<ArrayBuffer> {
  const samples = new Float32Array(Math.round(sampleRate * seconds));
  const beepLength = Math.round(sampleRate * BEEP_SHARE);
  for (let i = 0; i < samples.length; i += 1) {
    const t = i / sampleRate;
    const beeping = i % sampleRate < beepLength;
    samples[i] =
      TONE_LEVEL * Math.sin(2 * Math.PI * toneHz * t) +
      (beeping ? 2 * TONE_LEVEL * Math.sin(2 * Math.PI * toneHz * BEEP_FACTOR * t) : 0);
  }
  return samples;
}

/** music-plan.ts's melody: two notes a second on a major pentatonic scale from A3, moved up per output. */
const NOTES_PER_SECOND = 2;
const ROOT_HZ = 220;
const PENTATONIC_SEMITONES = [0, 2, 4, 7, 9];

/** The same samples as music-plan.ts's aevalsrc expression: each note a plucked sine decaying to the next. */
export function melodySamples(index: number, sampleRate: number, seconds: number): Float32Array<ArrayBuffer> {
  // Rounded as music-plan.ts writes it into the expression, so the pitch (and phase) is ffmpeg's to the sample.
  const root = Number((ROOT_HZ * 2 ** ((index * 5) / 12)).toFixed(3));
  const step = 3 + (index % 2);
  const samples = new Float32Array(Math.round(sampleRate * seconds));
  for (let i = 0; i < samples.length; i += 1) {
    const t = i / sampleRate;
    const degree = (Math.floor(t * NOTES_PER_SECOND) * step + index) % 5;
    const hz = root * 2 ** (PENTATONIC_SEMITONES[degree]! / 12);
    const decay = (1 - ((t * NOTES_PER_SECOND) % 1)) ** 2;
    samples[i] = 0.35 * Math.sin(2 * Math.PI * t * hz) * decay;
  }
  return samples;
}
