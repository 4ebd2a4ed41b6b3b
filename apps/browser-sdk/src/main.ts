import { BlockRules } from './block';
import { cachedConfig, enforcing, fetchConfig, type SdkConfig } from './config';
import { Connections, requestOrigin } from './connections';
import { embeddedConfig } from './embedded';
import { SensitiveFields } from './fields';
import { ScriptGate } from './gate';
import { sdkCheck, type Observation } from './observations';
import { PageChecks, pageHeaders, serviceWorkers } from './page-checks';
import { quietly, safe } from './safe';
import { ScriptObserver, type ScriptFacts } from './scripts';
import { bareUrl, queryParam } from './stack';
import { Transport } from './transport';
import { refusedByCors } from '@pss/sdk-contract';
import { whenIdle, whenIdleAfterLoad } from './idle-work';
import type {} from './loader'; // window.__pssLoader

/** How long an observation may wait for its batch: while the page settles (the calibration window), then after it. */
const CALIBRATION_FLUSH_MS = 2_000;
const STEADY_FLUSH_MS = 10_000;
/** The longest the first batch waits for the page's scripts to be hashed (a script server that does not answer). */
const FIRST_SCAN_MS = 5_000;

/** Settles with `promise`, or after `ms` if it has not by then. */
const within = (promise: Promise<unknown>, ms: number): Promise<unknown> =>
  new Promise((settle) => {
    const timer = setTimeout(settle, ms);
    const done = () => {
      clearTimeout(timer);
      settle(undefined);
    };
    promise.then(done, done);
  });

declare global {
  interface Window {
    __pssSdk?: boolean;
  }
}

const scriptsOfPage = (): HTMLScriptElement[] => Array.prototype.slice.call(document.scripts);
const elementOf = (url: string): HTMLScriptElement | undefined => scriptsOfPage().filter((script) => script.src === url)[0];

/**
 * The SDK on a payment page. What must be in place before the page's other scripts run (DOM hooks, field
 * getters, the CSP listener) is installed synchronously and costs nothing until used; the rest waits for the
 * config, fetched without blocking anything, and for the page to have loaded. Every entry point is wrapped: the
 * SDK never throws into the page, and when the service is down or slow the page works as if it were absent.
 */
const boot = safe(() => {
  // currentScript is null when a loader evaluates the SDK some other way: its tag is then found by its key.
  const self = (document.currentScript || document.querySelector('script[src*="key=pk_live_"],script[data-key^="pk_live_"]')) as HTMLScriptElement | null;
  if (!self || !self.src || window.__pssSdk) return; // loaded twice: the first copy does the work
  window.__pssSdk = true;
  // `src` as the DOM gives it is absolute and normalized: read as a string (a page's first URL object is not free).
  const selfUrl = bareUrl(self.src);
  const key = queryParam(self.src, 'key') || self.getAttribute('data-key');
  if (!key) return;
  const base = self.getAttribute('data-endpoint') || selfUrl.slice(0, selfUrl.lastIndexOf('/') + 1); // where sdk.js came from: …/sdk/v1/
  let steadyAfter = 0;
  // A batch leaves a while after its first observation: soon while the page settles (the calibration window), then less often.
  const transport = new Transport(`${base}events?key=${encodeURIComponent(key)}`, () => (Date.now() < steadyAfter ? CALIBRATION_FLUSH_MS : STEADY_FLUSH_MS));
  const send = safe((observation: Observation) => transport.add(observation));
  // The scripts the shop put before the SDK's snippet are the first ones of the document, looked at only if the
  // config asks: the inline loader counts them (`data-before`), since the SDK it inserts runs later.
  const counted = parseInt(self.getAttribute('data-before') || '', 10);
  const before = counted >= 0 ? counted : document.scripts.length;
  // Kept as elements, not as the document's first `before`: a loader may insert a script ahead of the SDK's tag
  // later (the standard tag-manager snippet puts gtm.js before the first script, the SDK's), and that one did not
  // run before the SDK. Block mode starts only after its config fetch, when gtm.js is there already.
  const ranBefore = scriptsOfPage().slice(0, before);

  const facts: ScriptFacts = { gtmOf: new WeakMap(), blocked: new WeakSet(), ours: new WeakSet() };
  // The install loader's script is the SDK's; what it stopped with the last page view's rules before the SDK came
  // (loader.ts) is reported as stopped, and from now on the SDK decides.
  const handover = window.__pssLoader;
  if (handover) {
    handover.release();
    facts.ours.add(handover.element);
    handover.stopped.forEach((script) => facts.blocked.add(script));
  }
  const rules = new BlockRules();
  // Served for the key with a monitor-mode or paused config: that config is the one to run with (as fresh as
  // sdk.js's 5-minute cache), so nothing is fetched or read from storage first. Block mode always asks afresh.
  const embedded = embeddedConfig();
  const scripts = new ScriptObserver(selfUrl, facts, send, refusedByCors(embedded && embedded.cors_refused));
  const settled = embedded && !enforcing(embedded) ? embedded : undefined;
  let fresh = !!settled;
  let recalled = false;
  // The last page view's config (or the one served with sdk.js), read at the first script decision: block
  // rules act from the start.
  const recall = () => {
    if (recalled || fresh) return;
    recalled = true;
    const known = cachedConfig(key) || embedded;
    rules.update(known);
    if (known && enforcing(known)) gate.holdUntilConfig();
  };
  // Reported in an idle slice: hashing a script may wait, stopping it (the gate's job) may not.
  const gate = new ScriptGate(rules, facts, (script: HTMLScriptElement) => whenIdle(() => scripts.element(script)), recall);
  gate.install(!settled); // the parser is watched only while block mode may be on
  const fields = new SensitiveFields(selfUrl, (src, field, callers) => send({ kind: 'sensitive_field_access', src, field, callers: callers.length ? callers : undefined }));
  fields.install();
  const service = requestOrigin(base);
  const connections = new Connections(selfUrl, service ? [location.origin, service] : [location.origin], send, (url) => !!elementOf(url));
  connections.install();
  document.addEventListener(
    'securitypolicyviolation',
    safe((event: SecurityPolicyViolationEvent) => {
      send({ kind: 'csp_violation', directive: event.effectiveDirective || event.violatedDirective, blocked_uri: event.blockedURI || 'inline', source_file: event.sourceFile || undefined });
    }),
  );

  const checks: Array<() => void> = [];
  const runChecks = safe(() => checks.forEach((check) => safe(check)()));

  /** Nothing more is hooked or sent: developer mode (one heartbeat) or a key the service refused (nothing). */
  const stand = (heartbeat: boolean) => {
    fields.configure(null, false);
    connections.stop();
    rules.update(undefined);
    gate.configReady();
    if (heartbeat) transport.pause();
    else transport.stop();
  };

  const start = safe((config: SdkConfig | undefined) => {
    if (config && config.paused) return stand(true);
    rules.update(config);
    gate.configReady();
    const settings = config && config.config;
    fields.configure(settings ? settings.sensitive_fields : null, true);
    transport.release();
    if (settings && settings.installation_order_policy === 'warn') {
      for (const script of ranBefore) if (script !== self) send(sdkCheck('installation-order', script.src || 'inline'));
    }
    whenIdleAfterLoad(safe(() => observe(settings)));
  });

  const observe = (settings: SdkConfig['config'] | undefined) => {
    gate.watch();
    scripts.start();
    const firstScan = scripts.scan(whenIdle);
    // Scripts fetched from now on; the ones before are in the scan.
    try {
      const resource = (entry: PerformanceEntry) => {
        if ((entry as PerformanceResourceTiming).initiatorType === 'script') whenIdle(() => scripts.external(entry.name, elementOf(entry.name)));
        else connections.timed(entry as PerformanceResourceTiming);
      };
      // The connections made before the SDK looked: the browser's buffer of them.
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).forEach((entry) => entry.initiatorType !== 'script' && resource(entry));
      new PerformanceObserver(safe((list: PerformanceObserverEntryList) => list.getEntries().forEach(resource))).observe({ type: 'resource' });
    } catch {
      // no resource timing observer: later scripts are still seen through their elements
    }
    // Once the page's scripts are hashed (or FIRST_SCAN_MS at most), the tab's storage is read for the first
    // batch (the session id, whether this path's headers were read in this tab), the headers are read if not,
    // and the first batch leaves with everything, not at a timer's tick.
    quietly(
      within(firstScan, FIRST_SCAN_MS)
        .then(pageHeaders)
        .then((found) => found && send(found))
        .then(undefined, () => undefined)
        .then(transport.flush),
    );
    if (!settings) return;
    steadyAfter = Date.now() + settings.calibration_seconds * 1000;
    if (settings.gtm_containers.length) checks.push(unapprovedContainers(settings.gtm_containers));
    if (settings.allowed_service_workers.length) whenIdle(() => quietly(serviceWorkers(settings.allowed_service_workers).then((found) => found.forEach(send))));
    const page = new PageChecks(send, (element) => fields.classify(element) !== null);
    gate.mutated = () => {
      page.changed = true;
    };
    checks.push(() => page.run(settings));
    whenIdle(runChecks);
    setInterval(() => whenIdle(runChecks), Math.max(500, settings.overlay_check_interval_ms));
  };

  /** A tag-manager container not on the approved list, reported once, when its script is seen. */
  const unapprovedContainers = (approvedIds: string[]) => {
    const approved = approvedIds.map((id) => id.toUpperCase());
    const reported = new Set<string>();
    return () => {
      for (const script of scriptsOfPage()) {
        const id = (facts.gtmOf.get(script) || (/[?&]id=(GTM-[A-Z0-9]+)/i.exec(script.src) || [])[1] || '').toUpperCase();
        if (id && approved.indexOf(id) < 0 && !reported.has(id)) {
          reported.add(id);
          send(sdkCheck('gtm-container', id));
        }
      }
    };
  };

  addEventListener(
    'pagehide',
    safe(() => {
      runChecks();
      transport.flush();
    }),
  );
  addEventListener('visibilitychange', safe(() => document.visibilityState === 'hidden' && transport.flush()));

  const askConfig = () =>
    quietly(
      fetchConfig(base, key).then(
        (config) => {
          fresh = true;
          // An unknown or suspended key: the service will take nothing, so the SDK does nothing.
          if (config) start(config);
          else stand(false);
        },
        () => start(cachedConfig(key)), // the service is down: observe with what was known, sending fails quietly
      ),
    );
  // The config served with the script starts the SDK at once (nothing to wait for); the config fetch goes in a
  // task of its own, as soon as the parser yields: the start-up stays one short task (a fetch() call costs
  // milliseconds on a slow phone, and with the bundle's compilation it made the start a long task).
  if (settled) start(settled);
  else setTimeout(safe(askConfig), 0);
});

boot();
