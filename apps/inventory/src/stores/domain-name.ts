import { domainToASCII } from 'node:url';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A store's domain as users may type it (`https://Loja.Exemplo.com.br:443/checkout`, `shop.example.`, an IDN)
 * reduced to the one host name that identifies it: scheme, credentials, path, port and trailing dot stripped,
 * lower case, punycode. Undefined when what is left is not a public host name (an IP address, one label).
 */
export function normalizeDomain(input: string): string | undefined {
  let host = input.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  host = host.split(/[/?#]/, 1)[0].replace(/^.*@/, '');
  if (host.startsWith('[')) return undefined;
  host = host.replace(/:\d*$/, '').replace(/\.+$/, '').toLowerCase();
  const ascii = host ? domainToASCII(host) : '';
  return ascii && isPublicHostName(ascii) ? ascii : undefined;
}

export function isPublicHostName(host: string): boolean {
  if (host.length > 253) return false;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  const tld = labels[labels.length - 1];
  return /^[a-z]{2,63}$/.test(tld) || tld.startsWith('xn--');
}
