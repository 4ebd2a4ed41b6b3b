/**
 * Benchmark 7's reference point: the least a page-side SDK under contract v1 must do on a first page view, and
 * nothing else. It wraps the DOM insertion methods and the value getter (as block mode and field attribution
 * need), then, once the page has loaded and is idle: re-fetches every external script and digests it (hashes
 * computed in the page), reads the page's headers with a same-origin HEAD, keeps a session id in
 * sessionStorage, and sends one keepalive batch. No config, no checks, no error handling: it is a measure, not
 * an SDK. Its script time is the part of the SDK's cost that fewer lines of JavaScript cannot remove.
 */
export const SDK_FLOOR_SCRIPT = `(function () {
  ['appendChild', 'insertBefore', 'replaceChild'].forEach(function (name) {
    var original = Node.prototype[name];
    Object.defineProperty(Node.prototype, name, { configurable: true, writable: true, value: function () { return original.apply(this, arguments); } });
  });
  ['append', 'prepend', 'before', 'after', 'replaceWith'].forEach(function (name) {
    var original = Element.prototype[name];
    Element.prototype[name] = function () { return original.apply(this, arguments); };
  });
  var value = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  Object.defineProperty(HTMLInputElement.prototype, 'value', { configurable: true, get: function () { return value.get.call(this); }, set: function (v) { value.set.call(this, v); } });
  var self = document.currentScript;
  var events = self.getAttribute('data-endpoint') + 'events?key=' + new URL(self.src).searchParams.get('key');
  addEventListener('load', function () {
    requestIdleCallback(function () {
      var observations = [];
      var urls = [].slice.call(document.scripts).map(function (script) { return script.src; }).filter(function (src) { return src && src !== self.src; });
      var pending = urls.length + 1;
      var done = function () {
        if (--pending > 0) return;
        var id = sessionStorage.getItem('floor.sid') || String(Math.random()).slice(2);
        sessionStorage.setItem('floor.sid', id);
        var body = JSON.stringify({ page_url: location.origin + location.pathname, session_id: id, sdk_version: 'floor', observations: observations });
        fetch(events, { method: 'POST', body: body, keepalive: true, mode: 'cors', credentials: 'omit', headers: { 'Content-Type': 'text/plain' } }).catch(function () {});
      };
      urls.forEach(function (url) {
        fetch(url, { mode: 'cors', credentials: 'omit', cache: 'force-cache' })
          .then(function (response) { return response.arrayBuffer(); })
          .then(function (bytes) { return crypto.subtle.digest('SHA-384', bytes); })
          .then(function (digest) {
            observations.push({ kind: 'script', src: url, inline: false, hash: 'sha384-' + btoa(String.fromCharCode.apply(null, new Uint8Array(digest))), hash_source: 'sdk' });
          }, function () { observations.push({ kind: 'script', src: url, inline: false }); })
          .then(done);
      });
      fetch(location.href, { method: 'HEAD', cache: 'no-store' })
        .then(function (response) { observations.push({ kind: 'headers', headers: { 'content-security-policy': response.headers.get('content-security-policy') || '' } }); }, function () {})
        .then(done);
    });
  });
})();`;
