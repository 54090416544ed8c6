// The app's "generate a clip" widget in the states the API can put it in, each from a scenario of the emulator.
import type { Meta, StoryObj } from '@storybook/html-vite';
import { media, type Outcome, settle, submit } from './media.js';

/** Resets the emulator, loads `scenario`, and runs what the widget does. */
const withScenario = (scenario: string, run: () => Promise<string>) => async (): Promise<{ outcome: Outcome }> => {
  await media.reset();
  await media.control.scenario.load(scenario);
  return { outcome: { line: await run() } };
};

const meta: Meta = {
  title: 'Generator',
  render: (_args, { loaded }) => {
    const status = document.createElement('p');
    status.setAttribute('role', 'status');
    status.textContent = (loaded as { outcome: Outcome }).outcome.line;
    return status;
  },
};
export default meta;

export const InsufficientCredits: StoryObj = {
  loaders: [
    withScenario('insufficient-credits', async () => {
      const { status, body } = await submit('story-credits-0001');
      return `Refused ${status}: ${body.error.code} (wallet ${body.error.wallet_balance})`;
    }),
  ],
};

export const ContentPolicyFailure: StoryObj = {
  loaders: [
    withScenario('content-policy-refund', async () => {
      const { body } = await submit('story-policy-0001');
      const generation = await settle(body.generation.id);
      return `Failed: ${generation.error.code}, ${generation.refunded_credits} of ${generation.charged_credits} credits refunded`;
    }),
  ],
};

export const ExpiredLink: StoryObj = {
  loaders: [
    withScenario('expired-urls', async () => {
      const { body } = await submit('story-expired-0001');
      const generation = await settle(body.generation.id);
      const download = await fetch(generation.outputs[0].url);
      return `Download refused ${download.status}: ${(await download.json()).error.code}`;
    }),
  ],
};
