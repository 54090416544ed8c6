// CI's mutation scope (.ci/run): the files of src/domain/ and src/store/ that the committed incremental report holds,
// comma-separated for `stryker run --mutate`. A file enters it when `npm run test:mutation -- --mutate <file>` has
// measured it and the refreshed report is committed; a full run (`npm run test:mutation`) measures them all.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(new URL('stryker-incremental.json', import.meta.url), 'utf8'));
const files = Object.keys(report.files)
  .map((file) => file.replaceAll('\\', '/'))
  .filter((file) => /^src\/(domain|store)\//.test(file))
  .sort();
if (files.length === 0)
  throw new Error('test/mutation/stryker-incremental.json measures no file of src/domain or src/store');
process.stdout.write(files.join(','));
