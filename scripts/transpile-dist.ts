// Builds src/ to plain JavaScript in a temporary package root in a second or two (transpile only, no type check), so
// memory and start-up are measured on the code users run (`dist/`, no TypeScript loader in the process).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface TranspiledPackage {
  /** Root holding dist/ and links to package.json, fixtures/, src/ and node_modules/, like an installed package. */
  root: string;
  cli: string;
  index: string;
  remove(): void;
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

export function transpileDist(): TranspiledPackage {
  const root = mkdtempSync(join(tmpdir(), 'media-gen-dist-'));
  const srcDir = join(REPO_ROOT, 'src');
  // ESNext modules: transpileModule cannot see package.json "type", and NodeNext would fall back to CommonJS.
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2022,
    esModuleInterop: true,
    verbatimModuleSyntax: false,
  };
  for (const file of sources(srcDir)) {
    const out = join(root, 'dist', relative(srcDir, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(
      out,
      ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: options, fileName: file }).outputText,
    );
  }
  for (const name of ['package.json', 'fixtures', 'src', 'node_modules'])
    symlinkSync(join(REPO_ROOT, name), join(root, name));
  return {
    root,
    cli: join(root, 'dist', 'cli', 'main.js'),
    index: join(root, 'dist', 'index.js'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
