// `npm run test:packaging`: npm pack, install the tarball into a fresh consumer project, run the README's examples there as
// written, type-check them strictly (nodenext, no skipLibCheck) on TypeScript 7 and 5.9, with and without @types/node,
// and run the installed CLI. Needs the npm registry.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readmeExamples } from './readme-examples.js';
import { REPO_ROOT } from './transpile-dist.js';

const started = performance.now();
const step = (what: string) =>
  process.stdout.write(`\n== ${what} (+${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, npm_config_update_notifier: 'false' } });
/** The versions this repository tests with, so the consumer resolves from the npm cache when it can. */
const versionOf = (name: string) =>
  (
    JSON.parse(
      readFileSync(createRequire(join(REPO_ROOT, 'package.json')).resolve(`${name}/package.json`), 'utf8'),
    ) as { version: string }
  ).version;

/** The consumer's compilers: this repository's TypeScript 7, and the last JavaScript-based line many projects are still on. */
const COMPILERS = { 'TypeScript 7': 'typescript', 'TypeScript 5.9': 'typescript-5.9' } as const;
const compilerInstalls = () => [
  `typescript@${versionOf('@typescript/native')}`,
  'typescript-5.9@npm:typescript@~5.9.3',
];

/** Uses every public entry point's types and no Node global, so it compiles without @types/node. */
const PUBLIC_TYPES_FILE = `import {
  type Control, connectEmulator, createApp, createEmulatorApp, DEFAULT_API_KEY, type Emulator, type EmulatorOptions,
  type RunningEmulator, startEmulator, toMarkdown, type VerifyReport,
} from 'media-gen-emulator';

export async function everyPublicType(options: EmulatorOptions, report: VerifyReport): Promise<string[]> {
  const media: RunningEmulator = await startEmulator({ ...options, timing: 'manual' });
  const control: Control = media.control;
  const emulator: Emulator = createEmulatorApp();
  const { server } = await emulator.listen(0);
  const remote = connectEmulator(media.url);
  const key: string = await remote.apiKey();
  await Promise.all([media.close(), emulator.close()]);
  return [key, DEFAULT_API_KEY, typeof createApp(), typeof server.address(), typeof control.reset, toMarkdown(report)];
}
`;

/** tsc --noEmit on `dir` with each compiler. */
function typeCheck(dir: string, withNodeTypes: boolean) {
  for (const [name, pkg] of Object.entries(COMPILERS)) {
    step(
      `tsc --noEmit, ${name}, ${withNodeTypes ? 'with' : 'without'} @types/node (strict, nodenext, library files too)`,
    );
    run(process.execPath, [join(dir, 'node_modules', pkg, 'bin/tsc'), '-p', 'tsconfig.json'], dir);
  }
}

const tsconfigFor = (types: string[]) =>
  JSON.stringify(
    {
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        noEmit: true,
        skipLibCheck: false,
        types,
      },
      include: ['*.ts'],
    },
    null,
    2,
  );

const work = mkdtempSync(join(tmpdir(), 'media-gen-packaging-'));
const consumer = join(work, 'consumer');
try {
  step('npm pack (runs prepare: the build)');
  execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const tarball = join(work, readdirTarball(work));
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
  const unwanted = listing.filter((f) => /\.tsbuildinfo$|\.map$/.test(f));
  if (unwanted.length) throw new Error(`the tarball ships files it must not: ${unwanted.join(', ')}`);
  if (!listing.includes('package/dist/cli/main.js') || !listing.includes('package/dist/index.d.ts'))
    throw new Error('the tarball has no dist/cli/main.js or dist/index.d.ts: did prepare run?');
  process.stdout.write(`${tarball}: ${listing.filter(Boolean).length} files, no maps, no .tsbuildinfo\n`);

  step('a fresh consumer project with typescript, vitest and @types/node');
  execFileSync('mkdir', ['-p', consumer]);
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', scripts: {} }, null, 2),
  );
  writeFileSync(join(consumer, 'tsconfig.json'), tsconfigFor(['node']));
  run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      tarball,
      ...compilerInstalls(),
      `vitest@${versionOf('vitest')}`,
      `@types/node@${versionOf('@types/node')}`,
    ],
    consumer,
  );

  step("the README's examples, written out as they stand");
  const examples = readmeExamples();
  if (examples.filter((e) => e.name.endsWith('.test.ts')).length < 2)
    throw new Error('README.md has fewer than two marked vitest examples (<!-- example: NAME.test.ts -->)');
  for (const example of examples) {
    writeFileSync(join(consumer, example.name), example.code);
    process.stdout.write(`  ${example.name}\n`);
  }

  writeFileSync(join(consumer, 'public-types.ts'), PUBLIC_TYPES_FILE);
  typeCheck(consumer, true);

  step('a second consumer with no @types/node at all: the shipped types need none');
  const bare = join(work, 'bare-consumer');
  mkdirSync(bare);
  writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'bare-consumer', private: true, type: 'module' }));
  writeFileSync(join(bare, 'tsconfig.json'), tsconfigFor([]));
  writeFileSync(join(bare, 'public-types.ts'), PUBLIC_TYPES_FILE);
  run('npm', ['install', '--no-audit', '--no-fund', tarball, ...compilerInstalls()], bare);
  if (existsSync(join(bare, 'node_modules/@types/node')))
    throw new Error('the package brought @types/node into a consumer that did not ask for it');
  typeCheck(bare, false);

  step('vitest run: the README examples against the installed package');
  // Real renders: on a loaded CI machine a first MP4 can take longer than vitest's 5 s default.
  run(join(consumer, 'node_modules/.bin/vitest'), ['run', '--reporter=verbose', '--testTimeout=30000'], consumer);

  step('npx media-gen-emulator --help');
  const help = execFileSync('npx', ['--no-install', 'media-gen-emulator', '--help'], {
    cwd: consumer,
    encoding: 'utf8',
  });
  if (!help.includes('Usage: media-gen-emulator')) throw new Error(`unexpected --help output:\n${help}`);
  process.stdout.write(`${help.split('\n')[0]}\n`);

  step('the installed CLI serves the catalogue and the console');
  await smokeInstalledCli(consumer);

  step(`passed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  if (process.env.KEEP_PACKAGING_DIR) process.stdout.write(`kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}

function readdirTarball(dir: string): string {
  const name = execFileSync('ls', [dir], { encoding: 'utf8' })
    .split('\n')
    .find((f) => f.endsWith('.tgz'));
  if (!name) throw new Error(`npm pack wrote no .tgz into ${dir}`);
  return name;
}

/** Starts the installed bin on port 0, reads its URL from the banner, and checks the routes that need shipped files. */
async function smokeInstalledCli(dir: string) {
  const child = spawn(join(dir, 'node_modules/.bin/media-gen-emulator'), ['--port', '0', '--timing', 'fast'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /listening on (http:\/\/\S+)/.exec(out);
        if (found) resolve(found[1]!);
      });
      child.once('exit', (code) =>
        reject(new Error(`the installed CLI exited with ${code} before listening:\n${out}`)),
      );
    });
    const models = await fetch(`${url}/v1/media/models`, {
      headers: { Authorization: 'Bearer sk-media-local-emulator-key' },
    });
    const consolePage = await fetch(`${url}/_emulator/console`);
    // A JSON body, read and decoded by the installed package.
    const estimate = await fetch(`${url}/v1/media/estimate`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk-media-local-emulator-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'a lighthouse at dusk' }),
    });
    if (models.status !== 200 || consolePage.status !== 200 || estimate.status !== 200)
      throw new Error(
        `models answered ${models.status}, the console ${consolePage.status}, the estimate ${estimate.status}`,
      );
    process.stdout.write(`${url}: /v1/media/models 200, /_emulator/console 200, POST /v1/media/estimate 200\n`);
  } finally {
    child.kill('SIGTERM');
  }
}
