import { sri384 } from './hashing';

export interface ContentHash {
  hash: string;
  hash_source: 'sdk';
  size_bytes: number;
}

/**
 * Fetching and hashing a script's bytes runs in a worker (fetch, body and SHA-384 all off the page's main thread)
 * made from a blob: URL. Where the page's CSP forbids blob: workers, or workers are missing, the page's thread
 * does it. Same-origin scripts are fetched with the page's cookies (the bytes the page got), others without, in
 * CORS mode; `force-cache` serves them from the HTTP cache the page just filled.
 */
const WORKER_SOURCE =
  'onmessage=function(e){var m=e.data;fetch(m.url,{mode:"cors",credentials:m.same?"same-origin":"omit",cache:"force-cache"})' +
  '.then(function(r){if(!r.ok)throw 0;return r.arrayBuffer()}).then(function(b){return crypto.subtle.digest("SHA-384",b).then(function(d){' +
  'var s="",a=new Uint8Array(d);for(var i=0;i<a.length;i++)s+=String.fromCharCode(a[i]);postMessage({id:m.id,hash:"sha384-"+btoa(s),size:b.byteLength})})})' +
  '.catch(function(){postMessage({id:m.id})})}';

export class ContentHasher {
  private worker?: Worker | null;
  private next = 0;
  private readonly waiting = new Map<number, { url: string; resolve: (hash: ContentHash | undefined) => void }>();

  hash(url: string): Promise<ContentHash | undefined> {
    const worker = this.started();
    if (!worker) return inPage(url);
    return new Promise((resolve) => {
      const id = (this.next += 1);
      this.waiting.set(id, { url, resolve });
      worker.postMessage({ id, url, same: new URL(url).origin === location.origin });
    });
  }

  private started(): Worker | null {
    if (this.worker !== undefined) return this.worker;
    this.worker = null;
    if (typeof Worker !== 'function' || typeof Blob !== 'function' || cspForbidsBlobWorkers()) return null;
    try {
      const worker = new Worker(URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' })));
      worker.onmessage = (event: MessageEvent<{ id: number; hash?: string; size?: number }>) => {
        const { id, hash, size } = event.data;
        const entry = this.waiting.get(id);
        this.waiting.delete(id);
        if (entry) entry.resolve(hash ? { hash, hash_source: 'sdk', size_bytes: size || 0 } : undefined);
      };
      worker.onerror = () => this.fallBack();
      this.worker = worker;
    } catch {
      this.worker = null;
    }
    return this.worker;
  }

  /** The worker could not start after all: what it was given is hashed in the page. */
  private fallBack(): void {
    this.worker = null;
    for (const [, entry] of this.waiting) inPage(entry.url).then(entry.resolve, () => entry.resolve(undefined));
    this.waiting.clear();
  }
}

async function inPage(url: string): Promise<ContentHash | undefined> {
  try {
    const sameOrigin = new URL(url).origin === location.origin;
    const response = await fetch(url, { mode: 'cors', credentials: sameOrigin ? 'same-origin' : 'omit', cache: 'force-cache' });
    if (!response.ok) return undefined;
    const bytes = await response.arrayBuffer();
    const hash = await sri384(bytes);
    return hash ? { hash, hash_source: 'sdk', size_bytes: bytes.byteLength } : undefined;
  } catch {
    return undefined; // no CORS: the browser will not show the bytes
  }
}

/**
 * A CSP in a `<meta>` tag that would refuse a blob: worker (worker-src, else child-src, else script-src, else
 * default-src without `blob:`): the SDK then stays out of its way rather than trigger a violation report. A CSP
 * sent as a header is not visible to the page; a refusal there makes the worker fail, and the page hashes.
 */
function cspForbidsBlobWorkers(): boolean {
  const metas = document.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]');
  for (let i = 0; i < metas.length; i += 1) {
    const directives: Record<string, string> = {};
    for (const part of (metas[i].getAttribute('content') || '').split(';')) {
      const [name, ...sources] = part.trim().split(/\s+/);
      if (name) directives[name.toLowerCase()] = sources.join(' ');
    }
    const governing = ['worker-src', 'child-src', 'script-src', 'default-src'].map((name) => directives[name]).filter((value) => value !== undefined)[0];
    if (governing !== undefined && !/(^|\s)blob:/.test(governing)) return true;
  }
  return false;
}
