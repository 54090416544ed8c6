// msw-storybook-addon (CSF 3): its loader starts the worker and installs the story's handlers, the emulator's, before
// each story's own loaders run.
import type { Preview } from '@storybook/html-vite';
import { mswLoader } from 'msw-storybook-addon/csf3';
import { media } from '../media.js';

const preview: Preview = {
  loaders: [mswLoader()],
  parameters: { msw: { handlers: media.handlers } },
};
export default preview;
