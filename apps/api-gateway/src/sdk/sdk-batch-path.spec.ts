import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SDK_BATCH_PATH, type StepRuns } from './sdk-batch-path';

const ROOT = join(__dirname, '../../../..');
const source = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Fastify's order: every onRequest hook, then the body's parser, then preHandler hooks, then the handler. */
const LIFECYCLE: StepRuns[] = ['onRequest hook', 'onRequest hook and body parser', 'preHandler hook', 'handler', 'inventory, on COMMANDS.sdkIngest', 'behind the answer'];
/** What a step's file must install for the table's `runs` to be true of it (steps run inside another's hook install none). */
const INSTALLS: Partial<Record<StepRuns, RegExp[]>> = {
  'onRequest hook and body parser': [/addHook\('onRequest'/, /addContentTypeParser\(/],
  'preHandler hook': [/addHook\('preHandler'/],
};
const HOOK_INSTALLED = 'apps/api-gateway/src/sdk/sdk-http.module.ts';

describe('the SDK batch path (sdk-batch-path.ts)', () => {
  it.each(SDK_BATCH_PATH.map((step) => [step.step, step] as const))('%s: is defined where the table says, and called from where it says', (_, step) => {
    expect(source(step.where)).toMatch(new RegExp(`export (abstract )?(class|function|const) ${step.symbol}\\b`));
    expect(source(step.calledFrom)).toMatch(new RegExp(`\\b${step.symbol}\\b`));
    for (const install of INSTALLS[step.runs] ?? []) expect(source(step.where)).toMatch(install);
  });

  it("lists the steps in Fastify's order, from the key to the facts", () => {
    const positions = SDK_BATCH_PATH.map((step) => LIFECYCLE.indexOf(step.runs));
    expect(positions).not.toContain(-1);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(SDK_BATCH_PATH[0].step).toBe('admission');
    expect(SDK_BATCH_PATH[SDK_BATCH_PATH.length - 1].step).toBe('facts');
  });

  it('has the admission hook installed before the body hook and the early route: an unknown key is refused before its body is read', () => {
    const module = source(HOOK_INSTALLED);
    const installed = SDK_BATCH_PATH.filter((step) => step.calledFrom === HOOK_INSTALLED).map((step) => module.indexOf(`${step.symbol}`, module.indexOf('onModuleInit')));
    expect(installed).toHaveLength(3);
    expect(installed).not.toContain(-1);
    expect(installed).toEqual([...installed].sort((a, b) => a - b));
  });

  it('names each step once', () => {
    expect(new Set(SDK_BATCH_PATH.map((step) => step.step)).size).toBe(SDK_BATCH_PATH.length);
  });
});
