import type { Clock } from '@pss/kernel';
import type { OpsArgs } from '@pss/ops';
import { EmbeddedHarness, type HttpAnswer } from './embedded-harness';

export interface SuiteOptions {
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /** The scopes of the suite's token; without them no tenant is made (the suite's tests make their own). */
  scopes?: string[];
  /** The tenant's organization (`org.create` arguments); an enterprise one unless given, so plan limits stay out of the way. */
  organization?: OpsArgs;
  /** Another way to start the service, such as the notifier's webhook harness; `clock` and `env` are then its business. */
  start?: () => Promise<EmbeddedHarness>;
}

/** What an e2e suite runs against: the embedded service and, when scopes were given, one tenant calling its API. */
export interface EmbeddedSuite {
  service: EmbeddedHarness;
  orgId: string;
  token: string;
  prefix: string;
  /** `method` on `/api/v1${path}` with the suite's token, or with `as`. */
  call(method: string, path: string, body?: unknown, as?: string): Promise<HttpAnswer>;
  get(path: string, as?: string): Promise<HttpAnswer>;
  /** A store of the suite's organization, on a domain of its own (EmbeddedHarness.createStore). */
  newStore(body?: Record<string, unknown>): Promise<any>;
}

/**
 * Starts the service before the suite's tests and closes it after them, as `serviceInChromium` does for browser
 * tests; the fields are there once `beforeAll` has run, so tests read them as `suite.token`, never destructured early.
 */
export function embeddedSuite(options: SuiteOptions = {}): EmbeddedSuite {
  const suite = {
    call: (method: string, path: string, body?: unknown, as = suite.token) => suite.service.request(method, `/api/v1${path}`, { token: as, body }),
    get: (path: string, as?: string) => suite.call('GET', path, undefined, as),
    newStore: (body: Record<string, unknown> = {}) => suite.service.createStore(suite.token, body),
  } as EmbeddedSuite;
  beforeAll(async () => {
    suite.service = await (options.start ?? (() => EmbeddedHarness.start({ clock: options.clock, env: options.env })))();
    if (options.scopes) Object.assign(suite, await suite.service.tenant(options.scopes, options.organization ?? { plan: 'enterprise' }));
  });
  afterAll(() => suite.service?.close());
  return suite;
}
