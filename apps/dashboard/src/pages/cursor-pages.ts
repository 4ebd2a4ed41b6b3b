import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import type { DashboardRequest } from '../http/dashboard-route';

/** The words of a list's page links, each page's own ("Next page" of alerts, of the inventory…). */
export interface CursorPageLabels {
  first: MessageKey;
  next: MessageKey;
  label: MessageKey;
}

/**
 * The links between a list's pages read by cursor: back to the first (on every page but the first) and on to the
 * next (while there is one). Cursors only go forward, so there is no "previous".
 */
export function cursorPages(request: DashboardRequest, links: { first?: string | null; next?: string | null }, labels: CursorPageLabels): Html | null {
  const { t } = request;
  const pages = [links.first ? html`<a href="${links.first}">${t(labels.first)}</a>` : null, links.next ? html`<a href="${links.next}" rel="next">${t(labels.next)}</a>` : null].filter(Boolean);
  return pages.length ? html`<nav aria-label="${t(labels.label)}"><p>${pages.map((link, index) => html`${index ? ' · ' : ''}${link}`)}</p></nav>` : null;
}
