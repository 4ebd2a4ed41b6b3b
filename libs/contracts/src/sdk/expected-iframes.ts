/**
 * Whether an iframe's origin is one a store expects (`expected_iframe_origins`), shared by the service that
 * reports an unexpected one and by the SDK that watches expected ones for overlays. An entry written as an origin
 * (`https://pay.example.com:8443`) is that origin exactly: scheme and port included, so `http://localhost:4000`
 * does not vouch for every local iframe. An entry written as a host name is the spec's: that host and its
 * subdomains, on any scheme and port. Bundled into the SDK: ES2017, no dependency.
 */
export function isExpectedIframe(origin: string, expected: readonly string[]): boolean {
  const host = origin.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/:\d+$/, '');
  return expected.some((entry) =>
    entry.indexOf('://') >= 0 ? entry === origin : host === entry || host.slice(-entry.length - 1) === `.${entry}`,
  );
}
