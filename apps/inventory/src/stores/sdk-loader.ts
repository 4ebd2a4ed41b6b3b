import { createHash } from 'node:crypto';

/**
 * The inline loader every install snippet is: it loads the SDK without ever holding the page. A `<script src>`
 * (synchronous, `async`, `defer` or inserted by code) delays the page's `load` event until its server answers, so
 * a service that accepts connections and never answers kept checkouts blank; a `<link rel=preload>` inserted by
 * code does not, and the script element inserted once the preload has arrived reuses its bytes (no second
 * request, so no second chance to hang). Where preload is missing (old browsers) it inserts the script at once.
 *
 * It reads its two attributes: `data-src` (the SDK's URL, with the key) and `data-key`, and hands the SDK
 * `data-before`, how many scripts the document had before the loader, for the installation-order check. Under
 * Trusted Types it asks for a policy named `pss-loader` (allow it in the `trusted-types` directive). The text is
 * the same for every store, so a shop's CSP allows it with one hash, `SDK_LOADER_CSP_HASH`. No single quote and
 * no backslash: the WordPress snippet holds it in a PHP single-quoted string.
 */
export const SDK_LOADER =
  '(function(d,s){var u=s.getAttribute("data-src"),k=s.getAttribute("data-key"),n=d.scripts.length-1,h=d.head||d.documentElement,p,l=d.createElement("link");' +
  'try{p=window.trustedTypes.createPolicy("pss-loader",{createScriptURL:function(x){return x}})}catch(e){}' +
  'function run(){var e=d.createElement("script");e.async=true;e.crossOrigin="anonymous";e.setAttribute("data-key",k);e.setAttribute("data-before",n);e.src=p?p.createScriptURL(u):u;h.appendChild(e)}' +
  'if(l.relList&&l.relList.supports&&l.relList.supports("preload")){l.rel="preload";l.as="script";l.crossOrigin="anonymous";l.href=u;l.onload=run;h.appendChild(l)}else run()' +
  '})(document,document.currentScript)';

/** The CSP source that allows the loader inline: `script-src 'sha256-…'`. */
export const SDK_LOADER_CSP_HASH = `sha256-${createHash('sha256').update(SDK_LOADER).digest('base64')}`;
