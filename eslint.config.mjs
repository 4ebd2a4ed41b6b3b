// The lint and module-boundaries gate that `npm test` runs first (issue 30). docs/architecture.md draws the
// projects and explains each rule; the tags live in each project's project.json.
import eslint from '@eslint/js';
import nx from '@nx/eslint-plugin';
import { createProjectGraphAsync } from '@nx/devkit';
import tseslint from 'typescript-eslint';

// The boundary rule reads Nx's cached project graph and silently skips every file when there is none (a clean
// CI checkout has none), so the graph is computed here, fresh, before any file is linted. No daemon: lint is a
// one-off process and leaves nothing running behind it.
process.env.NX_DAEMON ??= 'false';
await createProjectGraphAsync({ exitOnError: true });

/** Test code: spec files, conformance suites, harnesses and fixtures, the Chromium rigs of the browser SDK and the dashboard, the fuzzer. */
const TEST_FILES = ['**/*.spec.ts', '**/*.conformance.ts', '**/testing/**/*.ts', 'apps/browser-sdk/test/**/*.ts', 'apps/dashboard/test/**/*.ts', 'apps/api-gateway/src/fuzz/**/*.ts'];
const APP_TEST_FILES = TEST_FILES.map((glob) => (glob.startsWith('apps/') ? glob : `apps/${glob}`));

/** Any file of an app, by its `@pss/<app>/…` alias. */
const ANY_APP_FILE = '^@pss/(api-gateway|inventory|alerts|reports|notifier|browser-sdk|embedded|dashboard)/';

/**
 * Nx forbids importing a project of type application outright, whatever the tags: so apps never import each
 * other and libs never import apps. The tags then say which libs each project may use. Scope: a service sees
 * its own scope and the shared libs. Type: the domain imports only the domain; a port (an interface with its
 * adapters and conformance suite) the domain and other ports; data access (queries over a port that several
 * services run) the domain and ports; an adapter anything but apps and tests.
 */
const depConstraints = [
  ...['gateway', 'inventory', 'alerts', 'reports', 'notifier', 'sdk', 'dashboard'].map((service) => ({
    sourceTag: `scope:${service}`,
    onlyDependOnLibsWithTags: [`scope:${service}`, 'scope:shared'],
  })),
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'] },
  { sourceTag: 'type:port', onlyDependOnLibsWithTags: ['type:domain', 'type:port'] },
  { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:domain', 'type:port'] },
  { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:domain', 'type:port', 'type:data-access', 'type:adapter'] },
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:port', 'type:data-access', 'type:adapter'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:domain', 'type:port', 'type:data-access', 'type:adapter', 'type:testing'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:domain', 'type:port', 'type:data-access', 'type:adapter', 'type:testing'] },
];

/** Test code may also use the test kit. */
const testDepConstraints = depConstraints.map((constraint) =>
  constraint.sourceTag.startsWith('type:') ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:testing'] } : constraint,
);

/**
 * Nx's rule with its autofix left out: the fix of a relative import into another project reads each alias of
 * that project as a file, and a `@pss/<project>/*` alias is a pattern, so the fix would crash the run instead
 * of reporting the import. The gate reports; a person picks the alias.
 */
const boundaryRule = nx.rules['enforce-module-boundaries'];
const reportOnly = {
  ...boundaryRule,
  meta: { ...boundaryRule.meta, fixable: undefined },
  create: (context) =>
    boundaryRule.create(Object.create(context, { report: { value: (descriptor) => context.report({ ...descriptor, fix: undefined }) } })),
};

const boundaries = (constraints, allow = []) => ['error', { allow, depConstraints: constraints }];

export default tseslint.config(
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    ignores: [
      '**/node_modules/**',
      '.nx/**',
      'data/**',
      'dist/**',
      'coverage/**',
      '.bench/**',
      // Generated: openapi-typescript's client types and the built install loader (checked by their own specs).
      'apps/api-gateway/src/openapi/client/api-types.d.ts',
      'libs/contracts/src/sdk/sdk-loader.generated.ts',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  { plugins: { '@nx': { rules: { 'enforce-module-boundaries': reportOnly } } } },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(depConstraints),
      // `_`-prefixed names are the codebase's way to say "required by a signature, not read".
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The composition root: it runs every service in one process, so it imports each service's Nest module.
    files: ['apps/embedded/src/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(depConstraints, ['^@pss/(api-gateway|inventory|alerts|reports|notifier|dashboard)/src/[a-z-]+\\.module$']) },
  },
  {
    // The gateway container's composition root: the dashboard is served by the gateway's HTTP server (issue 31).
    files: ['apps/api-gateway/src/main.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(depConstraints, ['^@pss/dashboard/src/dashboard\\.module$']) },
  },
  {
    // A service's end-to-end specs drive the whole system through the embedded harness (the composition root)
    // and check it against the service's own limits and fixtures, so app tests may import any app's files.
    files: APP_TEST_FILES,
    rules: { '@nx/enforce-module-boundaries': boundaries(testDepConstraints, [ANY_APP_FILE]) },
  },
  {
    // Libs' tests may use the test kit, and still no app.
    files: TEST_FILES.map((glob) => `libs/${glob}`),
    rules: { '@nx/enforce-module-boundaries': boundaries(testDepConstraints) },
  },
  {
    files: [...TEST_FILES, 'bench/**/*.ts'],
    rules: {
      // Tests and benchmarks read whatever JSON the API answered or the receiver got; typing each body would restate the
      // OpenAPI document that the contract check already holds every response to.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The admin CLI talks to a running composition root (ops-call), and the loader build calls the gateway's
    // bundler so that its output is the very text the gateway serves: the shops' CSP hash is of those bytes. The
    // events docs build writes what the gateway's AsyncAPI builder makes of the catalogue, as its specs check it.
    files: ['tools/cli/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(depConstraints, [
        '^@pss/embedded/src/embedded\\.modules$',
        '^@pss/api-gateway/src/sdk/sdk-bundle$',
        '^@pss/api-gateway/src/openapi/asyncapi/events-docs$',
      ]),
    },
  },
  {
    // Benchmarks measure the services' own code in process (a fold, a projection, the webhook queue, the SDK in
    // Chromium), which no public API exposes without the network in the way, and start the composition root.
    files: ['bench/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(testDepConstraints, [ANY_APP_FILE]) },
  },
  {
    // Nest's reflection hands handlers and DTO classes around as `Function` (Reflector, class-validator and
    // class-transformer metadata are keyed by them); the gateway's request glue reads that metadata as typed.
    files: ['apps/api-gateway/src/{auth,http,openapi}/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-function-type': 'off' },
  },
  {
    // Modules their packages export under no importable name (class-transformer's metadata storage, mingo's
    // internals) or without typings for `import` (autocannon): required, and typed by the cast beside each.
    files: ['apps/api-gateway/src/http/compiled-query.ts', 'apps/api-gateway/src/openapi/nested-type.ts', 'libs/read-store/src/memory/mingo.ts', 'bench/load-generator.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Node scripts in CommonJS (the SWC register hook, Jest's config and reporter) and ES modules.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
