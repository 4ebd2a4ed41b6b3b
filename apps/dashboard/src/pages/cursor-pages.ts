import { html, type Html } from '../html/html';
import type { DashboardRequest } from '../http/dashboard-route';

/**
 * The links between a list's pages read by cursor: back to the first (on every page but the first) and on to the
 * next (while there is one). Cursors only go forward, so there is no "previous".
 */
export function cursorPages(request: DashboardRequest, links: { first?: string; next?: string }): Html | null {
  const { t } = request;
  const pages = [links.first ? html`<a href="${links.first}">${t('list.first')}</a>` : null, links.next ? html`<a href="${links.next}" rel="next">${t('list.next')}</a>` : null].filter(Boolean);
  return pages.length ? html`<nav aria-label="${t('list.pages')}"><p>${pages.map((link, index) => html`${index ? ' · ' : ''}${link}`)}</p></nav>` : null;
}
