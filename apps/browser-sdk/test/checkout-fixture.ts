import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import { LoopbackServer } from './loopback-server';

/**
 * A realistic checkout for the SDK's budget benchmark (issue 35): jQuery, lodash and Bootstrap sized as their
 * minified releases, the shop's own scripts, a payment provider, analytics and a chat widget (9 hashable
 * scripts: same origin, or cross-origin loaded with `crossorigin` from a host that answers CORS), two inline
 * scripts, a stylesheet and a card form. lodash is the real one from node_modules; jQuery and Bootstrap are not
 * installed, so code of their size is generated from a fixed seed (same bytes on every run). Assets are served as
 * a shop's CDN serves them: cacheable with validators (`ETag`, `Last-Modified`), so a repeat view of the tab runs
 * them from the HTTP cache; the page itself is `no-store`, as checkouts are.
 */

const REPO = join(__dirname, '..', '..', '..');

/** A deterministic stream of numbers (mulberry32): the generated libraries are the same bytes on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Minified-looking library code of about `bytes`: many small functions of a few shapes (loops over strings,
 * object building, array work), most never called, as in a real library, plus an initialization that calls
 * `initCalls` of them and publishes `globalName`.
 */
export function generatedLibrary(globalName: string, bytes: number, seed: number, initCalls: number): string {
  const next = seeded(seed);
  const shapes = [
    (i: number) => `function f${i}(a,b){var s=${i};for(var k=0;k<a.length;k++){s=(s*31+a.charCodeAt(k))|0}return s^(b|0)}`,
    (i: number) => `function f${i}(a,b){var o={};for(var k=0;k<${4 + (i % 7)};k++){o["k"+k]=a+k*(b|0)}return o}`,
    (i: number) => `function f${i}(a,b){var r=[];for(var k=0;k<${8 + (i % 5)};k++){r.push((k*${i % 13}+String(a).length)%(b|0||7))}return r.join(",")}`,
    (i: number) => `function f${i}(a,b){return typeof a==="string"?a.replace(/[^a-z0-9]/gi,"").slice(0,${10 + (i % 9)})+(b|0):String(a)+${i}}`,
  ];
  const parts: string[] = [];
  let size = 0;
  let count = 0;
  while (size < bytes) {
    const part = shapes[Math.floor(next() * shapes.length)](count);
    parts.push(part);
    size += part.length;
    count += 1;
  }
  const table = Array.from({ length: count }, (_, i) => `f${i}`).join(',');
  return `/*! ${globalName} (generated for the benchmark, seed ${seed}) */!function(g){"use strict";${parts.join(';')};var t=[${table}],n=0;for(var i=0;i<${initCalls};i++){var r=t[(i*7919)%t.length]("init"+i,i);n+=typeof r==="number"?r&1:String(r).length}g.${globalName}={fns:t,ready:n};}(window);`;
}

/** The shop's checkout code: a cart totalled with lodash, and the card field formatted as the shopper types (it reads the value). */
const APP = `(function(){var items=[];for(var i=0;i<400;i++){items.push({sku:"SKU-"+i,qty:1+i%3,price:(i*37)%200+0.99})}
var total=_.sumBy(items,function(it){return it.qty*it.price});var byQty=_.groupBy(items,"qty");
document.getElementById("total").textContent="R$ "+total.toFixed(2)+" ("+_.size(byQty)+" grupos)";
var cc=document.getElementById("cc");cc.addEventListener("input",function(){var digits=cc.value.replace(/\\D/g,"").slice(0,16);
cc.value=digits.replace(/(.{4})(?=.)/g,"$1 ");document.getElementById("brand").textContent=/^4/.test(digits)?"Visa":/^5[1-5]/.test(digits)?"Mastercard":"";});
document.getElementById("pay").addEventListener("submit",function(e){e.preventDefault()});window.checkoutReady=true;})();`;

/** What the page's own listeners do beside the app: the card number checked (Luhn) on every keystroke. */
const CARD_VALIDATION = `${generatedLibrary('CardRules', 9_000, 6, 40)}
document.getElementById("cc").addEventListener("input",function(e){var d=e.target.value.replace(/\\D/g,""),s=0;for(var i=0;i<d.length;i++){var n=+d[d.length-1-i];if(i%2){n*=2;if(n>9)n-=9}s+=n}e.target.setAttribute("data-valid",String(d.length>=13&&s%10===0))});`;

const LOCALE = generatedLibrary('CheckoutLocale', 7_000, 5, 20);

/** A stylesheet of Bootstrap's kind, generated: enough rules for style recalculation to be real work. */
function stylesheet(): string {
  const rules: string[] = [];
  for (let i = 0; i < 1200; i += 1) rules.push(`.u${i}{margin:${i % 9}px ${i % 5}px;padding:${i % 7}px;color:#${((i * 2654435761) % 16777216).toString(16).padStart(6, '0')}}`);
  return `body{font-family:system-ui,sans-serif;margin:0}.container{max-width:960px;margin:0 auto;padding:16px}h1{font-size:2rem}.summary{font-size:1.1rem;line-height:1.5}${rules.join('')}`;
}

/** The agents the SDK is compared with, bundled for the page as a shop bundles them (esbuild, minified). */
async function bundle(contents: string): Promise<string> {
  const result = await build({ stdin: { contents, resolveDir: REPO, loader: 'js' }, bundle: true, minify: true, format: 'iife', target: 'es2017', write: false, logLevel: 'silent' });
  return result.outputFiles[0].text;
}

/** `@sentry/browser` with its defaults: errors (and its release-health session), no tracing, no replay. */
const sentryAgent = (dsn: string) => bundle(`import * as Sentry from '@sentry/browser';Sentry.init({dsn:${JSON.stringify(dsn)},release:'checkout@1.0.0'});`);

/** web-vitals as its README shows: every metric queued, sent with a beacon when the tab is hidden. */
const vitalsAgent = (endpoint: string) =>
  bundle(`import {onCLS,onINP,onLCP,onFCP,onTTFB} from 'web-vitals';var queue=new Set();function add(m){queue.add(m)}
onCLS(add);onINP(add);onLCP(add);onFCP(add);onTTFB(add);
addEventListener('visibilitychange',function(){if(document.visibilityState==='hidden'&&queue.size){navigator.sendBeacon(${JSON.stringify(endpoint)},JSON.stringify(Array.from(queue)));queue.clear()}});`);

interface Asset {
  body: Buffer;
  type: string;
  /** An asset of the CDN: cacheable with validators, readable cross-origin. */
  cacheable: boolean;
  etag: string;
}

/** Which agent a page carries besides the shop's own scripts. */
export type Agent = 'none' | 'sdk' | 'sentry' | 'web-vitals';
export const AGENTS: Agent[] = ['none', 'sdk', 'sentry', 'web-vitals'];

/**
 * The shop's server: the checkout page once per agent, its assets, and the sinks the other agents report to
 * (Sentry's envelope endpoint, the vitals beacon), each counting what it received.
 */
export class CheckoutServer extends LoopbackServer {
  private readonly assets = new Map<string, Asset>();
  /** Requests received by the agents' sinks, by path. */
  readonly received = new Map<string, number>();
  static start(): Promise<CheckoutServer> {
    return new CheckoutServer().listen();
  }

  /** The shop's origin (`page`), or the third parties' (`vendor`, another origin on the same port: CORS applies). */
  url(path: string, origin: 'page' | 'vendor' = 'page'): string {
    return `http://${origin === 'page' ? '127.0.0.1' : 'localhost'}:${this.port}${path}`;
  }

  /**
   * Serves every asset and one checkout page per agent; `sdkSnippet` is the store's install snippet as the API
   * answered it. Answers the page's URL for each agent.
   */
  async prepare(sdkSnippet: string): Promise<Record<Agent, string>> {
    const vendor = (name: string) => this.url(`/vendor/${name}`, 'vendor');
    this.asset('/assets/jquery-3.7.1.min.js', generatedLibrary('jQuery', 87_000, 1, 600));
    this.asset('/assets/lodash.min.js', readFileSync(join(REPO, 'node_modules/lodash/lodash.min.js'), 'utf8'));
    this.asset('/assets/bootstrap.bundle.min.js', generatedLibrary('bootstrap', 80_000, 2, 500));
    this.asset('/assets/checkout.js', APP);
    this.asset('/assets/card-validation.js', CARD_VALIDATION);
    this.asset('/assets/locale-pt-BR.js', LOCALE);
    this.asset('/vendor/payments.js', generatedLibrary('PaymentsSDK', 32_000, 3, 200));
    this.asset('/vendor/analytics.js', generatedLibrary('analytics', 45_000, 4, 300));
    this.asset('/vendor/chat-widget.js', generatedLibrary('ChatWidget', 52_000, 7, 250));
    this.asset('/assets/bootstrap.min.css', stylesheet(), 'text/css');
    this.asset('/assets/sentry.js', await sentryAgent(`http://public@${new URL(this.url('/', 'vendor')).host}/1`));
    this.asset('/assets/web-vitals.js', await vitalsAgent(this.url('/vitals', 'vendor')));
    const scripts = `<script>window.dataLayer=window.dataLayer||[];dataLayer.push({event:"begin_checkout",currency:"BRL"});</script>
<script src="/assets/jquery-3.7.1.min.js"></script><script src="/assets/lodash.min.js"></script><script src="/assets/bootstrap.bundle.min.js"></script>
<script src="/assets/locale-pt-BR.js"></script>
<script src="${vendor('payments.js')}" crossorigin="anonymous"></script>
<script async src="${vendor('analytics.js')}" crossorigin="anonymous"></script>
<script defer src="${vendor('chat-widget.js')}" crossorigin="anonymous"></script>`;
    const body = `<div class="container"><h1>Finalizar compra</h1>
<p class="summary">Seu pedido: 3 itens, entrega expressa para São Paulo em até 2 dias úteis. Confira os dados de pagamento abaixo;
a cobrança é feita só depois da confirmação do banco emissor. Parcelamos em até 6 vezes sem juros no cartão.</p>
<p>Total: <strong id="total"></strong> <span id="brand"></span></p>
<form id="pay"><input name="name" autocomplete="cc-name" placeholder="Nome no cartão"><input id="cc" name="cardnumber" autocomplete="cc-number" inputmode="numeric" placeholder="Número do cartão">
<input name="exp" autocomplete="cc-exp" placeholder="MM/AA"><input name="cvv" autocomplete="cc-csc" placeholder="CVV"><button class="btn btn-primary">Pagar</button></form></div>
<script src="/assets/card-validation.js"></script><script src="/assets/checkout.js"></script>
<script>window.addEventListener("load",function(){dataLayer.push({event:"checkout_loaded"})});</script>`;
    const agents: Record<Agent, string> = { none: '', sdk: sdkSnippet, sentry: '<script src="/assets/sentry.js"></script>', 'web-vitals': '<script defer src="/assets/web-vitals.js"></script>' };
    const pages = {} as Record<Agent, string>;
    for (const agent of AGENTS) {
      const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Checkout</title>${agents[agent]}
<link rel="stylesheet" href="/assets/bootstrap.min.css">${scripts}</head><body>${body}</body></html>`;
      this.assets.set(`/checkout/${agent}`, { body: Buffer.from(html), type: 'text/html; charset=utf-8', cacheable: false, etag: '' });
      pages[agent] = this.url(`/checkout/${agent}`);
    }
    return pages;
  }

  private asset(path: string, text: string, type = 'application/javascript'): void {
    const body = Buffer.from(text);
    this.assets.set(path, { body, type, cacheable: true, etag: `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"` });
  }

  protected answer(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? '/').split('?')[0];
    const cors = { 'Access-Control-Allow-Origin': '*' };
    if (request.method === 'POST') {
      // Sentry's envelopes and the vitals beacon: counted, then answered as their services do.
      this.received.set(path, (this.received.get(path) ?? 0) + 1);
      request.resume();
      response.writeHead(200, { ...cors, 'Content-Type': 'application/json' }).end('{}');
      return;
    }
    const asset = this.assets.get(path);
    if (!asset) {
      response.writeHead(404).end();
      return;
    }
    if (!asset.cacheable) {
      response.writeHead(200, { 'Content-Type': asset.type, 'Cache-Control': 'no-store', 'Content-Length': asset.body.length });
      response.end(request.method === 'HEAD' ? undefined : asset.body);
      return;
    }
    // CDNs send Timing-Allow-Origin: the page's resource timing then shows each script's sizes and whether it came from cache.
    const headers = { ...cors, 'Timing-Allow-Origin': '*', 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600', ETag: asset.etag, 'Last-Modified': 'Mon, 02 Nov 2026 10:00:00 GMT' };
    if (request.headers['if-none-match'] === asset.etag) {
      response.writeHead(304, headers).end();
      return;
    }
    response.writeHead(200, { ...headers, 'Content-Length': asset.body.length });
    response.end(request.method === 'HEAD' ? undefined : asset.body);
  }
}
