import type { BusFaults } from '@pss/bus';
import type { ServiceAppOptions } from '@pss/host';
import type { Clock } from '@pss/kernel';
import { EMBEDDED_MODULES } from '@pss/embedded/src/embedded.modules';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { embeddedSuite, type EmbeddedSuite, type SuiteOptions } from '@pss/embedded/src/testing/embedded-suite';
import { NotifierModule } from '../notifier.module';
import { DELIVERY_CLIENT_SETTINGS, type DeliveryClientSettings } from '../outbound/delivery-client-settings';
import { HttpsReceiver, testCertificate } from './https-receiver';

/** Attempts wait this long in tests; in production, 8 seconds. */
const TEST_TIMEOUT_MS = 400;

/**
 * The whole service, embedded, for webhook tests: test receivers on loopback are allowed (WEBHOOK_ALLOW_HOSTS),
 * their certificate trusted and the delivery timeout short, through a NotifierModule whose
 * DELIVERY_CLIENT_SETTINGS provider replaces the default one.
 */
export async function startWebhookHarness({ timeoutMs = TEST_TIMEOUT_MS, ...options }: { clock?: Clock; dataDir?: string; timeoutMs?: number; busFaults?: BusFaults; engines?: ServiceAppOptions['engines']; env?: NodeJS.ProcessEnv } = {}): Promise<EmbeddedHarness> {
  const settings: DeliveryClientSettings = { timeoutMs, extraCaPems: [testCertificate().cert] };
  const modules = EMBEDDED_MODULES.map((module) =>
    module === NotifierModule ? { module: NotifierModule, providers: [{ provide: DELIVERY_CLIENT_SETTINGS, useValue: settings }] } : module,
  );
  return EmbeddedHarness.start({ ...options, modules, env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1,localhost', ...options.env } });
}

/** An e2e suite on the webhook harness with one test receiver, both started before the suite's tests and closed after them. */
export function webhookSuite({ clock, ...options }: Omit<SuiteOptions, 'start' | 'env'> = {}): EmbeddedSuite & { receiver: HttpsReceiver } {
  const suite = embeddedSuite({ ...options, start: () => startWebhookHarness({ clock }) }) as EmbeddedSuite & { receiver: HttpsReceiver };
  beforeAll(async () => {
    suite.receiver = await HttpsReceiver.start();
  });
  afterAll(() => suite.receiver?.close());
  return suite;
}
