/**
 * How a navigation link stands to the page being shown, for `aria-current`: `page` when it is that page, `true`
 * when the page lies under it (a channel's deliveries under E-mail channels), so a screen reader and the
 * stylesheet both tell where the person is. The home (`/dashboard`) is the root of every path, so it only ever
 * counts as itself.
 */
export type Currentness = 'page' | 'true' | null;

export function currentness(shownUrl: string, linkPath: string, homePath: string): Currentness {
  const shown = shownUrl.split(/[?#]/)[0].replace(/\/+$/, '') || '/';
  if (shown === linkPath) return 'page';
  if (linkPath !== homePath && shown.startsWith(`${linkPath}/`)) return 'true';
  return null;
}
