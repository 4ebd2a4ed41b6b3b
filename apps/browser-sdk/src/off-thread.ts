import { sri384 } from './hashing';
import { remember, remembered } from './tab-store';

export interface ContentHash {
  hash: string;
  hash_source: 'sdk';
  size_bytes: number;
}

/**
 * The SDK's network work runs in a worker made from a blob: URL, off the page's main thread: fetching and hashing
 * scripts (fetch, body and SHA-384), reading the page's headers, posting batches (all but the last one of a page,
 * which needs `keepalive` from the page itself). Where the page's CSP forbids blob: workers, or workers are
 * missing, the page's thread does the same. Same-origin scripts are fetched with the page's cookies (the bytes
 * the page got), others without, in CORS mode; `force-cache` serves them from the HTTP cache the page just filled.
 */
const WORKER_SOURCE =
  'onmessage=function(e){var m=e.data;' +
  'if(m.op==="post"){fetch(m.url,{method:"POST",body:m.body,mode:"cors",credentials:"omit",headers:{"Content-Type":"text/plain"}}).catch(function(){});return}' +
  'if(m.op==="head"){fetch(m.url,{method:"HEAD",credentials:"same-origin",cache:"no-store"}).then(function(r){var h={};' +
  'm.names.forEach(function(n){var v=r.headers.get(n);if(v!==null)h[n]=v});postMessage({id:m.id,headers:r.ok?h:null})})' +
  '.catch(function(){postMessage({id:m.id})});return}' +
  'fetch(m.url,{mode:"cors",credentials:m.same?"same-origin":"omit",cache:"force-cache"})' +
  '.then(function(r){if(!r.ok)throw 0;return r.arrayBuffer()}).then(function(b){return crypto.subtle.digest("SHA-384",b).then(function(d){' +
  'var s="",a=new Uint8Array(d);for(var i=0;i<a.length;i++)s+=String.fromCharCode(a[i]);postMessage({id:m.id,hash:"sha384-"+btoa(s),size:b.byteLength})})})' +
  '.catch(function(){postMessage({id:m.id})})}';

type Reply = { id: number; hash?: string; size?: number; headers?: Record<string, string> | null };
type Waiting = { fallback: () => Promise<unknown>; resolve: (value: any) => void }; // eslint-disable-line @typescript-eslint/no-explicit-any

const NO_WORKER = 'pss.noworker';

export class OffThread {
  private worker?: Worker | null;
  private next = 0;
  private readonly waiting = new Map<number, Waiting>();
  private readonly replies = new Map<number, (reply: Reply) => unknown>();

  /** SHA-384 of a script's bytes, when the browser shows them (same origin or CORS). */
  hash(url: string): Promise<ContentHash | undefined> {
    return this.ask({ op: 'hash', url, same: new URL(url).origin === location.origin }, () => inPage(url), (reply) =>
      reply.hash ? { hash: reply.hash, hash_source: 'sdk', size_bytes: reply.size || 0 } : undefined,
    );
  }

  /** The named response headers of a same-origin HEAD of `url`; undefined when it fails. */
  head(url: string, names: string[]): Promise<Record<string, string> | undefined> {
    return this.ask({ op: 'head', url, names }, () => headInPage(url, names), (reply) => reply.headers || undefined);
  }

  /** Posts a batch from the worker; false when there is none (the caller posts it itself). */
  post(url: string, body: string): boolean {
    const worker = this.started();
    if (!worker) return false;
    worker.postMessage({ op: 'post', url, body });
    return true;
  }

  private ask<T>(message: Record<string, unknown>, fallback: () => Promise<T>, read: (reply: Reply) => T): Promise<T> {
    const worker = this.started();
    if (!worker) return fallback();
    return new Promise<T>((resolve) => {
      const id = (this.next += 1);
      this.waiting.set(id, { fallback, resolve });
      this.replies.set(id, read);
      worker.postMessage({ ...message, id });
    });
  }

  private started(): Worker | null {
    if (this.worker !== undefined) return this.worker;
    this.worker = null;
    if (typeof Worker !== 'function' || typeof Blob !== 'function' || remembered('local', NO_WORKER) || cspForbidsBlobWorkers()) return null;
    try {
      const worker = new Worker(URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' })));
      worker.onmessage = (event: MessageEvent<Reply>) => {
        const entry = this.waiting.get(event.data.id);
        const read = this.replies.get(event.data.id);
        this.waiting.delete(event.data.id);
        this.replies.delete(event.data.id);
        if (entry && read) entry.resolve(read(event.data));
      };
      worker.onerror = () => this.fallBack();
      this.worker = worker;
    } catch {
      this.worker = null;
    }
    return this.worker;
  }

  /**
   * The page's CSP (a header the SDK cannot read) refused or reported the blob: worker: the SDK hashes in the
   * page from now on, and remembers it for this site, so the shop's CSP reports carry this at most once.
   */
  refused(): void {
    remember('local', NO_WORKER, '1');
    if (this.worker) this.worker.terminate();
    this.fallBack();
  }

  /** The worker could not start after all: what it was given is hashed in the page. */
  private fallBack(): void {
    this.worker = null;
    for (const [, entry] of this.waiting) entry.fallback().then(entry.resolve, () => entry.resolve(undefined));
    this.waiting.clear();
    this.replies.clear();
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

async function headInPage(url: string, names: string[]): Promise<Record<string, string> | undefined> {
  const response = await fetch(url, { method: 'HEAD', credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) return undefined;
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return headers;
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
