// Scenario expired-urls: generations complete, but their output URLs answer 403 url_expired.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';
import { pollUntilFinal } from '../helpers/well-behaved-client.js';

describe('scenario expired-urls', () => {
  it('the client gets a completed generation whose file download is refused with 403 url_expired', async () => {
    const { api, control, emulator } = controlled({ scenario: 'expired-urls' });
    const accepted = await api.submit(submission(), idem('expired'));
    const { generation } = await pollUntilFinal(api, control, accepted.body.generation.id);
    expect(generation.status).toBe('completed');
    const [output] = generation.outputs;
    expect(new Date(output.expires_at).getTime()).toBeLessThanOrEqual((await control.now()).getTime());
    const url = new URL(output.url);
    const download = await request(emulator.app).get(url.pathname + url.search);
    expect(download.status).toBe(403);
    expect(download.body.error.code).toBe('url_expired');
  });
});
