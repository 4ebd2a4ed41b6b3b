import { BlockRules } from './block';
import { cachedConfig, fetchConfig, type SdkConfig } from './config';
import { SensitiveFields } from './fields';
import { ScriptGate } from './gate';
import { sdkCheck, type Observation } from './observations';
import { PageChecks, pageHeaders, serviceWorkers } from './page-checks';
import { quietly, safe } from './safe';
import { ScriptObserver, type ScriptFacts } from './scripts';
import { bareUrl } from './stack';
import { sessionId, Transport } from './transport';

/** Batches go out often while the page settles (the calibration window), then less often, and always on pagehide. */
const CALIBRATION_FLUSH_MS = 2_000;
const STEADY_FLUSH_MS = 10_000;

declare global {
  interface Window {
    __pssSdk?: boolean;
  }
}

/**
 * The SDK on a payment page. Everything that must be in place before the page's other scripts run (DOM hooks,
 * field getters, the CSP listener) is installed synchronously; everything else waits for the config, fetched
 * without blocking anything. Every entry point is wrapped: the SDK never throws into the page, and when the
 * service is down or slow the page works as if the SDK were absent.
 */
const boot = safe(() => {
  const self = document.currentScript as HTMLScriptElement | null;
  if (!self || !self.src || window.__pssSdk) return; // loaded twice: the first copy does the work
  window.__pssSdk = true;
  const scriptUrl = new URL(self.src);
  const key = scriptUrl.searchParams.get('key') || self.getAttribute('data-key');
  if (!key) return;
  const base = self.getAttribute('data-endpoint') || new URL('.', scriptUrl).href; // where sdk.js came from: …/sdk/v1/
  const selfUrl = bareUrl(scriptUrl.href);
  const transport = new Transport(`${base}events?key=${encodeURIComponent(key)}`, sessionId());
  const send = safe((observation: Observation) => transport.add(observation));

  const earlier = Array.prototype.slice.call(document.scripts).filter((script: HTMLScriptElement) => script !== self) as HTMLScriptElement[];
  const cached = cachedConfig(key);
  if (cached && cached.paused) {
    // Developer mode (last known): nothing is hooked; the fresh config decides whether to start after all.
    quietly(fetchConfig(base, key).then(safe((config: SdkConfig | undefined) => (config && !config.paused ? undefined : transport.pause()))));
    return;
  }

  const facts: ScriptFacts = { gtmOf: new WeakMap(), blocked: new WeakSet() };
  const rules = new BlockRules();
  rules.update(cached);
  const scripts = new ScriptObserver(selfUrl, facts, send);
  const gate = new ScriptGate(rules, facts, safe((script: HTMLScriptElement) => scripts.element(script)));
  gate.install();
  if (cached && cached.config.mode === 'block') gate.holdUntilConfig();
  const fields = new SensitiveFields(selfUrl, (src, field) => send({ kind: 'sensitive_field_access', src, field }));
  fields.install();
  document.addEventListener(
    'securitypolicyviolation',
    safe((event: SecurityPolicyViolationEvent) => {
      send({ kind: 'csp_violation', directive: event.effectiveDirective || event.violatedDirective, blocked_uri: event.blockedURI || 'inline', source_file: event.sourceFile || undefined });
    }),
  );

  const start = safe((config: SdkConfig | undefined) => {
    if (config && config.paused) {
      fields.configure(null, false);
      rules.update(undefined);
      gate.configReady();
      transport.pause();
      return;
    }
    rules.update(config);
    gate.configReady();
    const settings = (config || cached)?.config;
    fields.configure(settings ? settings.sensitive_fields : null, true);
    transport.release();
    if (settings && settings.installation_order_policy === 'warn') {
      for (const script of earlier) send(sdkCheck('installation-order', script.src || 'inline'));
    }
    observe(settings);
  });

  const observe = (settings: SdkConfig['config'] | undefined) => {
    for (const script of Array.prototype.slice.call(document.scripts) as HTMLScriptElement[]) scripts.element(script);
    // The preload scanner fetches scripts before the parser creates their elements: a resource entry waits for
    // the document to be parsed, so the element (and its integrity attribute) is found when there is one.
    const resource = (entry: PerformanceEntry) => {
      if ((entry as PerformanceResourceTiming).initiatorType !== 'script') return;
      const report = safe(() => scripts.external(entry.name, elementOf(entry.name)));
      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', report);
      else report();
    };
    if (typeof PerformanceObserver === 'function') {
      try {
        new PerformanceObserver(safe((list: PerformanceObserverEntryList) => list.getEntries().forEach(resource))).observe({ type: 'resource', buffered: true });
      } catch {
        performance.getEntriesByType('resource').forEach(resource);
      }
    }
    quietly(pageHeaders().then((headers) => headers && send(headers)));
    if (!settings) return;
    if (settings.gtm_containers.length) {
      // a container not on the approved list is reported once, when its script is seen
      const approved = settings.gtm_containers.map((id) => id.toUpperCase());
      const reported = new Set<string>();
      const check = safe(() => {
        for (const script of Array.prototype.slice.call(document.scripts) as HTMLScriptElement[]) {
          const id = facts.gtmOf.get(script) || (/[?&]id=(GTM-[A-Z0-9]+)/i.exec(script.src) || [])[1];
          if (id && !approved.includes(id.toUpperCase()) && !reported.has(id)) {
            reported.add(id);
            send(sdkCheck('gtm-container', id.toUpperCase()));
          }
        }
      });
      checks.push(check);
    }
    quietly(serviceWorkers(settings.allowed_service_workers).then((found) => found.forEach(send)));
    const page = new PageChecks(send, (element) => fields.classify(element) !== null);
    checks.push(() => page.run(settings));
    setInterval(runChecks, Math.max(500, settings.overlay_check_interval_ms));
    steadyAfter = Date.now() + settings.calibration_seconds * 1000;
  };

  const checks: Array<() => void> = [];
  const runChecks = safe(() => checks.forEach((check) => safe(check)()));
  let steadyAfter = 0;
  let lastFlush = Date.now();
  setInterval(
    safe(() => {
      if (Date.now() < steadyAfter || Date.now() - lastFlush >= STEADY_FLUSH_MS) {
        lastFlush = Date.now();
        transport.flush();
      }
    }),
    CALIBRATION_FLUSH_MS,
  );
  addEventListener('pagehide', safe(() => {
    runChecks();
    transport.flush();
  }));
  addEventListener('visibilitychange', safe(() => document.visibilityState === 'hidden' && transport.flush()));

  quietly(
    fetchConfig(base, key).then(
      // An unknown or suspended key: the service will take nothing, so the SDK does nothing.
      (config) => (config ? start(config) : (fields.configure(null, false), rules.update(undefined), gate.configReady(), transport.stop())),
      () => start(cached), // the service is down: observe with what was known, sending fails quietly
    ),
  );
  // The first checks run once the page has drawn, so they never delay it.
  addEventListener('load', safe(() => setTimeout(runChecks, 0)));
});

const elementOf = (url: string): HTMLScriptElement | undefined =>
  (Array.prototype.slice.call(document.scripts) as HTMLScriptElement[]).filter((script) => script.src === url)[0];

boot();
