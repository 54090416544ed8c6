// The README's supertest line, `request(createApp()).get('/v1/media/models')`, as written.
import request from 'supertest';
import { expect, it } from 'vitest';
import { createApp, DEFAULT_API_KEY } from '../../src/index.js';

it('serves the API from createApp() with no socket', async () => {
  const app = createApp({ ffmpegPath: false });
  const res = await request(app).get('/v1/media/models').set('Authorization', `Bearer ${DEFAULT_API_KEY}`);
  expect(res.status).toBe(200);
  expect(res.body.models.map((m: { slug: string }) => m.slug)).toEqual([
    'motion-lite-v1',
    'keyframe-pro-v2',
    'still-sketch-v1',
    'tone-music-v1',
    'mesh-blocks-v1',
  ]);
  expect((await request(app).get('/v1/media/models')).body.error.code).toBe('missing_api_key');
});
