// dependency-cruiser: the layer rules of the house (docs/architecture.md); `npm run lint` runs it over src/ and fails on any violation.
const CORE = '^src/(http|domain|infra|openapi|wiring)/';
/** Every Node built-in, with or without its node: prefix (a reachability rule matches modules by path only). */
const NODE_BUILTIN = `^(node:)?(${require('node:module').builtinModules.join('|')})$`;

/**
 * The modules below the adapters that run on any host (Node, a browser page or worker): the rules, the wiring, the
 * store's core, infra/ and the options. Node's host services are named as such: a `node/` folder in their layer
 * (`infra/node/`, `store/node/`, `wiring/node/`), `infra/ffmpeg/`, and the Node modules of infra/ that predate that
 * folder (Node's SQLite binding and file, the ffmpeg and fixture renderers).
 */
const HOST_NEUTRAL = '^src/(domain|infra|wiring|store|http)/|^src/(config|version)[.]ts$';
const NODE_HOSTS =
  '^src/(infra|store|wiring|http)/node/|^src/infra/ffmpeg/|^src/infra/(sqlite-driver|sqlite-connection|create-renderer|fixture-renderer)[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        'Imports point one way; a cycle means two modules cannot be understood (or loaded) apart. A cycle with a type-only edge (`import type`) is allowed: TypeScript erases it, so no module loads another in a circle, and it lets a type be derived from the schema that checks it.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'core-never-imports-emulation',
      severity: 'error',
      comment:
        'The service core (http, domain, infra, openapi, wiring) is the real service; the emulation plane plugs into it.',
      from: { path: CORE },
      to: { path: '^src/emulation/' },
    },
    {
      name: 'store-never-imports-the-plane',
      severity: 'error',
      comment:
        "The store of record (src/store/) keeps the service's records in both modes and is no part of the emulation plane: a plugin adds its own kept state through wiring/kept-state.ts.",
      from: { path: '^src/store/' },
      to: { path: '^src/(emulation|verify)/' },
    },
    {
      name: 'core-and-plane-never-import-the-store',
      severity: 'error',
      comment:
        'Only the composition root (src/emulator.ts, src/compose-plugins.ts) creates the store of record; the core and the plane reach it through the hooks and the StoreHandle they are given (wiring/plugin.ts, wiring/kept-state.ts).',
      from: { path: `${CORE}|^src/config[.]ts$|^src/emulation/` },
      to: { path: '^src/store/' },
    },
    {
      name: 'config-and-core-never-import-plane-or-verify',
      severity: 'error',
      comment:
        'The options (config.ts) and the core know no plane or verify types: the plane registers its words (error codes, plan adjuster) through wiring/plugin.ts, and emulator-options.ts adds its options.',
      from: { path: `${CORE}|^src/config[.]ts$` },
      to: { path: '^src/(emulation|verify)/' },
    },
    {
      name: 'core-never-imports-the-composition',
      severity: 'error',
      comment: 'Only the composition root (src/emulator.ts) and the entry points know how the layers are put together.',
      from: { path: CORE },
      to: {
        path: '^src/(emulator|emulator-lifetime|emulator-host|node-host|compose-plugins|index|start-emulator|testing)[.]ts$|^src/cli/',
      },
    },
    {
      name: 'plugins-never-import-the-composition',
      severity: 'error',
      comment: 'The plane and the store get a Runtime handle (PluginSetup), never the Emulator.',
      from: { path: '^src/(emulation|store)/' },
      to: {
        path: '^src/(emulator|emulator-lifetime|emulator-host|node-host|compose-plugins|index|start-emulator|testing)[.]ts$|^src/cli/',
      },
    },
    {
      name: 'infra-never-imports-domain',
      severity: 'error',
      comment: 'infra/ touches the outside world and knows nothing of the service rules.',
      from: { path: '^src/infra/' },
      to: { path: '^src/domain/' },
    },
    {
      name: 'infra-never-imports-upper-layers',
      severity: 'error',
      comment: 'infra/ is the bottom layer.',
      from: { path: '^src/infra/' },
      to: { path: '^src/(http|openapi|wiring)/' },
    },
    {
      name: 'domain-only-imports-infra',
      severity: 'error',
      comment: 'domain/ knows the service; HTTP, the OpenAPI document and the wiring are above it.',
      from: { path: '^src/domain/' },
      to: { path: '^src/(http|openapi|wiring)/' },
    },
    {
      name: 'domain-no-io-or-express',
      severity: 'error',
      comment: 'domain/ never reads files, runs processes or knows Express; infra/ and the plane do that.',
      from: { path: '^src/domain/' },
      to: { path: '^(node:)?(fs|fs/promises|child_process)$|^express$|node_modules/express/' },
    },
    {
      name: 'domain-no-ffmpeg',
      severity: 'error',
      comment: 'Rendering is behind the RenderPort; domain/ never reaches the ffmpeg renderer.',
      from: { path: '^src/domain/' },
      to: { path: '^src/infra/(ffmpeg/|create-renderer|fixture-renderer)' },
    },
    {
      name: 'browser-renderer-never-reaches-node',
      severity: 'error',
      comment:
        'The browser renderer (src/infra/browser-renderer/) runs in a page or a worker: no module it reaches, directly or through others, may import a Node built-in (node:fs, node:path, node:crypto...). Buffer and other Node globals are caught by its own type check (tsconfig.browser.json, no Node types).',
      from: { path: '^src/infra/browser-renderer/' },
      to: { path: NODE_BUILTIN, reachable: true },
    },
    {
      name: 'host-neutral-core-never-reaches-node',
      severity: 'error',
      comment:
        'The core below the adapters runs in a browser too (issue 38): no module it reaches, directly or through others (type imports included), may import a Node built-in (node:fs, node:crypto, node:os, buffer...). What only Node does is a host service (docs/architecture.md, "Host services"): its Node implementation sits in a node/ folder and the composition root passes it in. Buffer and process are caught by tsconfig.browser.json, which type-checks these folders without Node\'s types.',
      from: { path: HOST_NEUTRAL, pathNot: NODE_HOSTS },
      to: { path: NODE_BUILTIN, reachable: true },
    },
    {
      name: 'msw-browser-entry-never-reaches-node',
      severity: 'error',
      comment:
        "media-gen-emulator/msw in a browser (src/msw/browser.ts, issue 38) is bundled into pages: nothing its whole import graph reaches (the core, the plane, the store, the fetch host, type imports included) may import a Node built-in, or a bundler would fail or ship a shim. Its Node twin is src/msw/node.ts. tsconfig.browser.json type-checks the same graph without Node's types.",
      from: { path: '^src/msw/browser' },
      to: { path: NODE_BUILTIN, reachable: true },
    },
    {
      name: 'pack-libraries-imported-when-needed',
      severity: 'error',
      comment:
        "re2js (45 KB min+gzip) and image-size (5 KB) are imported dynamically by the shared code, so the handler pack's page fetches them as chunks of their own when a pattern or an upload first needs them (bench/RESULTS.md, issue 38): a static import would put them back among what the pack loads on import. Node's composition imports re2js statically through pattern-engine-node.ts only.",
      from: { path: '^src/', pathNot: '^src/emulation/faults/pattern-engine-node[.]ts$' },
      to: {
        path: '(^|/)node_modules/(re2js|image-size)/|^(re2js|image-size)$',
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
    {
      name: 'msw-browser-entry-loads-re2js-lazily',
      severity: 'error',
      comment:
        'pattern-engine-node.ts imports re2js statically, for Node; a page gets it from loadPatternEngine() (fault-patterns.ts) when its handlers are created.',
      from: { path: '^src/msw/browser' },
      to: { path: '^src/emulation/faults/pattern-engine-node[.]ts$', reachable: true },
    },
    {
      name: 'msw-only-in-its-adapter',
      severity: 'error',
      comment: 'msw is a peer dependency of the handler pack only: the core and the Node server never import it.',
      from: { path: '^src/', pathNot: '^src/msw/' },
      to: { path: '^(node_modules/)?msw' },
    },
    {
      name: 'http-never-imports-wiring-or-openapi',
      severity: 'error',
      comment: 'http/ holds the public routes; the wiring and the document are built on top of it.',
      from: { path: '^src/http/' },
      to: { path: '^src/(wiring|openapi)/' },
    },
    {
      name: 'request-path-is-host-neutral',
      severity: 'error',
      comment:
        "The request path (src/http/ but its node/ host: exchanges, the front door, the pipeline, the handlers) runs under any host: it imports no Node built-in and no web framework. Node's host is src/http/node/.",
      from: { path: '^src/http/', pathNot: '^src/http/node/' },
      to: { path: `${NODE_BUILTIN}|^(express|cors)$|node_modules/(express|cors|busboy)/` },
    },
    {
      name: 'only-the-composition-root-picks-the-host',
      severity: 'error',
      comment:
        'Handlers, hooks and plugins never reach the host (src/http/node/): the composition root (src/emulator.ts, src/emulator-lifetime.ts) puts the pipeline on it.',
      from: { path: '^src/(domain|infra|openapi|wiring|store|emulation|http)/', pathNot: '^src/http/node/' },
      to: { path: '^src/http/node/' },
    },
    {
      name: 'testing-entry-only-from-tests',
      severity: 'error',
      comment: "src/testing.ts reaches internals; only this repository's tests may use it.",
      from: { path: '^src/', pathNot: '^src/testing[.]ts$' },
      to: { path: '^src/testing[.]ts$' },
    },
    {
      name: 'tests-live-in-test',
      severity: 'error',
      comment: 'Every test lives under test/ (unit tests in test/unit/, mirroring src/): src/ holds only what ships.',
      from: { path: '^src/' },
      to: { path: '^(vitest|supertest|fast-check)$|node_modules/(vitest|supertest|fast-check)/' },
    },
    {
      name: 'browser-store-has-no-node-modules',
      severity: 'error',
      comment:
        "The store's SQLite in a browser (issue 38: sqlite-browser.ts, the WebAssembly driver, the store's SQL) bundles for a page: nothing it reaches may import a node: module (Node's own connection is sqlite-driver.ts and sqlite-connection.ts, outside it).",
      from: {
        path: '^src/infra/(sqlite-browser|sqlite-wasm-driver|sqlite-store|sqlite-reads|sqlite-schema|sql-connection)[.]ts$',
      },
      to: { path: NODE_BUILTIN, reachable: true },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import that cannot be resolved is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
