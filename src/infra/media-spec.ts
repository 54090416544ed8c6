// What one output file must be: the renderer's input contract (the domain derives it from a model and its params).

export type MediaFormat = 'mp4' | 'png' | 'webp' | 'm4a' | 'mp3' | 'glb';

export interface MediaSpec {
  kind: 'image' | 'video' | 'music' | '3d';
  format: MediaFormat;
  mimeType: string;
  width?: number;
  height?: number;
  durationSeconds?: number;
  fps?: number;
  /** True when the file carries sound: video with audio=on, and every music output. */
  audio: boolean;
  /** Outputs in the generation; each is rendered separately by index. */
  count: number;
  quality?: string;
  aspect?: string;
  detail?: string;
  /**
   * Video only: how reference images are used. 'start' (Model A): the video moves on from the start image.
   * 'first-last' (Model B): first frame and last frame, cross-faded. Taken from the catalogue's ref slot roles.
   */
  referenceMode?: 'start' | 'first-last';
}
