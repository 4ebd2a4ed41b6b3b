import { MAX_CONNECTIONS_PER_BATCH, type ConnectionVia } from '@pss/sdk-contract';
import type { Observation } from './observations';
import { safe } from './safe';
import { scriptsOfCall } from './stack';

/** An absolute URL whose origin is already as browsers serialize it (lower case, no userinfo): no URL object needed. */
const PLAIN_ORIGIN = /^(https?|wss?):\/\/([a-z0-9.-]+(?::\d{1,5})?)(?:[/?#]|$)/;
const DEFAULT_PORT = /:(80|443)$/;
const SCHEMES = ['http:', 'https:', 'ws:', 'wss:'];

/** The origin a request goes to, as the service keeps it (`scheme://host[:port]`); undefined for data:, blob: and the like. */
export function requestOrigin(url: string): string | undefined {
  const plain = PLAIN_ORIGIN.exec(url);
  if (plain && !DEFAULT_PORT.test(plain[2])) return `${plain[1]}://${plain[2]}`;
  try {
    const parsed = new URL(url, location.href);
    return SCHEMES.indexOf(parsed.protocol) >= 0 ? `${parsed.protocol}//${parsed.host}` : undefined;
  } catch {
    return undefined;
  }
}

/** Resource timing's initiator types that are connections; scripts, styles and fonts are the page's own loading. */
const TIMED: Record<string, ConnectionVia> = { fetch: 'fetch', xmlhttprequest: 'xhr', beacon: 'beacon', img: 'image', image: 'image' };

/** Stack traces taken per origin: a script polling one endpoint is named by its first calls, then costs nothing. */
const STACKS_PER_ORIGIN = 8;

/**
 * Where the payment page sends data: every origin it reaches, reported once per page view and initiator. The
 * methods a skimmer sends with (fetch, XHR, beacons, image `src`, form submission, WebSockets) are wrapped to
 * name the script on the stack; resource timing catches what no wrapper saw (a request started before the SDK,
 * an image in the markup). Only the origin leaves the page, never a path, a query or a body. The page's own
 * origin and the service's are left out: they are the checkout itself.
 */
export class Connections {
  private active = true;
  private readonly reported = new Set<string>();
  private readonly stacks: Record<string, number> = {};
  private count = 0;

  constructor(
    private readonly selfUrl: string,
    private readonly own: string[],
    private readonly report: (observation: Observation) => void,
    private readonly isScript: (url: string) => boolean,
  ) {}

  /** Developer mode or a refused key: nothing more is reported. */
  stop(): void {
    this.active = false;
  }

  install(): void {
    const seen = (via: ConnectionVia) => safe((url: unknown) => this.called(url, via));
    wrap(window, 'fetch', seen('fetch'), (input) => (input && typeof input === 'object' && 'url' in input ? (input as Request).url : input));
    wrap(XMLHttpRequest.prototype, 'open', seen('xhr'), (_method, url) => url);
    wrap(navigator, 'sendBeacon', seen('beacon'), (url) => url);
    wrap(HTMLFormElement.prototype, 'submit', seen('form'), function (this: HTMLFormElement) {
      return this.action;
    });
    const submitted = seen('form');
    document.addEventListener('submit', (event) => submitted((event.target as HTMLFormElement).action), true);
    const image = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src');
    const imageSeen = seen('image');
    if (image && image.set && image.configurable) {
      const set = image.set;
      Object.defineProperty(HTMLImageElement.prototype, 'src', {
        ...image,
        set(this: HTMLImageElement, url: string) {
          imageSeen(url);
          set.call(this, url);
        },
      });
    }
    const Socket = window.WebSocket;
    const socket = seen('websocket');
    if (typeof Proxy === 'function' && Socket) {
      // A Proxy keeps `instanceof`, the constants and the prototype of the page's WebSocket as they are.
      window.WebSocket = new Proxy(Socket, {
        construct(target, args, newTarget) {
          socket(args[0]);
          return Reflect.construct(target, args, newTarget);
        },
      });
    }
  }

  /** A resource timing entry: a connection when its type is one, unless a wrapper already named it. */
  timed = safe((entry: PerformanceResourceTiming): void => {
    const via = TIMED[entry.initiatorType];
    const origin = via && this.active ? requestOrigin(entry.name) : undefined;
    // The SDK re-fetches the page's scripts to hash them: a request for a script's own URL is no connection.
    if (!origin || this.reported.has(origin) || this.own.indexOf(origin) >= 0 || this.isScript(entry.name)) return;
    this.add(origin, via, undefined);
  });

  private called(url: unknown, via: ConnectionVia): void {
    if (!this.active || url === undefined || url === null) return;
    const origin = requestOrigin(String(url));
    if (!origin || this.own.indexOf(origin) >= 0) return;
    const stacks = this.stacks[origin] || 0;
    if (stacks >= STACKS_PER_ORIGIN) return;
    this.stacks[origin] = stacks + 1;
    const scripts = scriptsOfCall(this.selfUrl, location.href);
    // No script on the stack: the SDK's own call (re-fetching a script to hash it).
    if (scripts.length) this.add(origin, via, scripts[0]);
  }

  private add(origin: string, via: ConnectionVia, initiator: string | undefined): void {
    const key = `${origin} ${initiator || ''}`;
    if (this.reported.has(key) || this.count >= MAX_CONNECTIONS_PER_BATCH) return;
    this.reported.add(key);
    this.reported.add(origin);
    this.count += 1;
    this.report(initiator ? { kind: 'connection', origin, via, initiator } : { kind: 'connection', origin, via });
  }
}

/** Replaces `target[name]` with a function that first tells `seen` the URL `urlOf` finds in its arguments. */
function wrap<T extends object>(target: T, name: keyof T & string, seen: (url: unknown) => void, urlOf: (this: never, ...args: unknown[]) => unknown): void {
  const native = target[name] as unknown as ((...args: unknown[]) => unknown) | undefined;
  if (typeof native !== 'function') return;
  const wrapped = function (this: never, ...args: unknown[]) {
    seen(safe(urlOf).apply(this, args));
    return native.apply(this, args);
  };
  (target as Record<string, unknown>)[name] = wrapped;
}
