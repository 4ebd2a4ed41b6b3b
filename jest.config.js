// One Jest project for the whole monorepo: SWC transpiles (fast, keeps decorator metadata), tsc type-checks
// separately in `npm test`. Path aliases come from tsconfig.base.json so there is one source of truth.
const { compilerOptions } = require('./tsconfig.base.json');

// `@pss/<lib>` names a lib's index; `@pss/<project>/*` a file inside a project (an app's, for the composition root,
// tests and tools, whose reach the lint gate decides).
const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) =>
    alias.endsWith('/*')
      ? [`^${alias.slice(0, -1)}(.*)$`, `<rootDir>/${target.slice(0, -1)}$1`]
      : [`^${alias}$`, `<rootDir>/${target}`],
  ),
);

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper,
  globalSetup: '<rootDir>/libs/testkit/src/global-setup.ts',
  reporters: ['default', '<rootDir>/libs/testkit/src/summary-reporter.js'],
  // A hook that starts the whole embedded service (or Chromium) on two busy cores can pass 30 s: a timeout here
  // says the machine was slow, never that the product was, so it is generous. Speed is judged by `npm run bench`.
  testTimeout: 60000,
  maxWorkers: 2,
};
