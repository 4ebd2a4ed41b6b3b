/**
 * Organization names go into the owner invitation e-mail, sent from the service's own address to an address the
 * creator chose: a name that reads as a link (`pay-now.example`, `www.…`, `https://…`) would turn the service into
 * a phishing relay, since mail clients make such text clickable. Checked after NFKC folding, so full-width
 * letters and the ideographic full stops that browsers take for a dot (`ｗｗｗ．`, `evil。com`) count as ASCII.
 */
const LINK_LIKE = [
  /:\/\//,
  /www\./i,
  // A dot with a letter or digit before it and two letters after, ending a word: `shop.com`, `a.b.example`, `x.xn--p1ai`.
  // "St. Louis" and "Acme Inc." pass; "St.Louis" does not: clients that link unknown top-level domains link it.
  /[\p{L}\p{N}]\.(?:\p{L}{2,}|xn--[\p{L}\p{N}-]+)(?![\p{L}\p{N}])/u,
];

export const ORGANIZATION_NAME_LINK_MESSAGE =
  'name must not look like a link: no "://", no "www." and no domain names such as shop.example (write "St. Louis", not "St.Louis")';

/** True when the name has a token a mail client could show as a link. */
export function looksLikeLink(name: string): boolean {
  const folded = name.normalize('NFKC').replace(/[\u3002\uFF61]/g, '.');
  return LINK_LIKE.some((pattern) => pattern.test(folded));
}
