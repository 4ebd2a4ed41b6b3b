import type { SdkConfig } from './config';
import { SECURITY_HEADERS } from '@pss/sdk-contract';
import { sdkCheck, type Observation } from './observations';
import { headersOf } from './fetched';
import { hashRecipientKey, shownRecipients } from './recipients';
import { quietly } from './safe';
import { isExpectedIframe } from '@pss/contracts/sdk/expected-iframes';
import { originOf } from './stack';
import { remember, remembered } from './tab-store';

/**
 * The page's security headers, read from a same-origin HEAD of the page's path, once per tab and path (the
 * service baselines them per path and alerts on a change). Without the query: it may carry an order id or a
 * token, which the shop's access logs would then show once more, and the headers baselined are the path's.
 */
export async function pageHeaders(): Promise<Observation | undefined> {
  const marker = `pss.h.${location.pathname}`;
  if (remembered('session', marker)) return undefined;
  remember('session', marker, '1');
  const headers = await headersOf(location.origin + location.pathname, [...SECURITY_HEADERS]);
  return headers ? { kind: 'headers', headers } : undefined;
}

/**
 * What the SDK re-checks every `overlay_check_interval_ms`: iframes (their origins; the service compares them
 * with `expected_iframe_origins`), recipients shown on the page (a swapped Pix key), and anything drawn over a
 * sensitive field or an expected payment iframe. Each finding is reported once per page view.
 */
export class PageChecks {
  private readonly reported = new Set<string>();
  private runs = 0;
  /** Set when the document's tree changed: the overlay check (it costs a layout) runs then, or every 5th time. */
  changed = true;

  constructor(
    private readonly report: (observation: Observation) => void,
    private readonly isSensitive: (element: Element) => boolean,
  ) {}

  run(config: SdkConfig['config']): void {
    this.iframes();
    this.recipients(config.payment_methods);
    if (this.changed || this.runs % 5 === 0) this.overlays(config.expected_iframe_origins);
    this.changed = false;
    this.runs += 1;
  }

  private once(key: string, observation: Observation): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.report(observation);
  }

  private iframes(): void {
    document.querySelectorAll('iframe[src]').forEach((frame) => {
      const origin = originOf((frame as HTMLIFrameElement).src);
      if (origin) this.once(`iframe ${origin}`, { kind: 'iframe', origin });
    });
  }

  private recipients(methods: string[]): void {
    const pix = methods.length === 0 || methods.some((method) => /pix/i.test(method));
    for (const shown of shownRecipients(document, pix)) {
      quietly(
        hashRecipientKey(shown.key).then((hash) => {
          if (hash) this.once(`recipient ${shown.method} ${hash}`, { kind: 'payment_recipient', method: shown.method, key_hash: hash });
        }),
      );
    }
  }

  /** Something else on top of the centre of a visible sensitive field or expected payment iframe. */
  private overlays(expected: string[]): void {
    const targets: Element[] = [];
    document.querySelectorAll('input,select,iframe[src]').forEach((element) => {
      if (element instanceof HTMLIFrameElement ? isExpectedFrame(element.src, expected) : this.isSensitive(element)) targets.push(element);
    });
    for (const target of targets) {
      const box = target.getBoundingClientRect();
      if (box.width < 4 || box.height < 4 || box.bottom < 0 || box.right < 0 || box.top > innerHeight || box.left > innerWidth) continue;
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!top || top === target || target.contains(top) || top.contains(target) || (top as HTMLLabelElement).control === target) continue;
      const subject = top instanceof HTMLIFrameElement ? originOf(top.src) || 'iframe' : describe(top);
      this.once(`overlay ${subject}`, sdkCheck('overlay', subject));
    }
  }
}

/** Service workers registered on the page's origin outside `allowed_service_workers` (paths). */
export async function serviceWorkers(allowed: string[]): Promise<Observation[]> {
  if (allowed.length === 0 || !navigator.serviceWorker) return [];
  const registrations = await navigator.serviceWorker.getRegistrations();
  const found: Observation[] = [];
  for (const registration of registrations) {
    const worker = registration.active || registration.waiting || registration.installing;
    if (worker && !allowed.includes(new URL(worker.scriptURL).pathname)) found.push(sdkCheck('service-worker', worker.scriptURL));
  }
  return found;
}

function isExpectedFrame(href: string, expected: string[]): boolean {
  const origin = originOf(href);
  return origin !== undefined && isExpectedIframe(origin, expected);
}

const describe = (element: Element): string => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}`;
