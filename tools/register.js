// Runs the TypeScript sources directly: SWC compiles on load (with decorator metadata, which Nest's DI needs)
// and the tsconfig path aliases of the libs resolve without a build step.
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || require('path').join(__dirname, '..', 'tsconfig.json');
require('@swc-node/register');
