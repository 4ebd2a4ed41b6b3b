import type { ScriptDocument } from '@pss/contracts';
import { decisionNeeded, type DecisionNeeded } from '@pss/dashboard-reads';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { memberField, scriptField, WHOLE_GROUP } from '../review/review-form';
import type { ReviewGroup } from '../review/review-groups';
import { cursorPages } from './cursor-pages';
import { csrfField, layout, time } from './layout';
import { storeZone, type StoreChoice } from './email-channels';
import { scriptPath, storeChoices } from './script';

export const REVIEW = dashboardPath('/review');

/** The inbox of one store (all, when blank), from its first page or a cursor's. */
export function inboxPath(storeId: string, cursor?: string): string {
  const query = new URLSearchParams({ ...(storeId ? { store: storeId } : {}), ...(cursor ? { cursor } : {}) }).toString();
  return query ? `${REVIEW}?${query}` : REVIEW;
}

/** A decision the service refused for one script, in its words. */
export interface ReviewFailure {
  src: string;
  message: string;
}

export interface ReviewView {
  storeId: string;
  stores: StoreChoice[];
  groups: Array<ReviewGroup & { justification: string }>;
  /** The scripts this person may decide on (their stores'; none for a viewer). */
  decides: (script: ScriptDocument) => boolean;
  paged: boolean;
  nextCursor: string | null;
  /** What the last form did: how many were decided, which were refused, or why the form was. */
  outcome?: { done: number; failures: ReviewFailure[] } | { error: MessageKey };
}

const SHORTCUTS: Array<[string, MessageKey]> = [
  ['j / k', 'review.key.move'],
  ['x', 'review.key.select'],
  ['g', 'review.key.group'],
  ['e', 'review.key.justify'],
  ['a', 'review.key.authorize'],
  ['b', 'review.key.block'],
  ['Esc', 'review.key.leave'],
];

const WHY: Record<DecisionNeeded, MessageKey> = {
  malicious: 'review.why.malicious',
  suspicious: 'review.why.suspicious',
  integrity: 'review.why.integrity',
  needs_review: 'review.why.needs_review',
  expiring: 'review.why.expiring',
};

function outcome(request: DashboardRequest, view: ReviewView): Html | null {
  const { t } = request;
  if (!view.outcome) return null;
  if ('error' in view.outcome) return html`<p class="error" role="alert" id="review-outcome">${t(view.outcome.error)}</p>`;
  const { done, failures } = view.outcome;
  return html`<div class="error" role="alert" id="review-outcome">
<p>${t('review.partial', { done, failed: failures.length })}</p>
<ul>${failures.map((failure) => html`<li><code>${failure.src}</code>: ${failure.message}</li>`)}</ul>
</div>`;
}

function groupSection(request: DashboardRequest, view: ReviewView, group: ReviewView['groups'][number], index: number): Html {
  const { t } = request;
  const names = new Map(view.stores.map((store) => [store._id, store.name]));
  const decidable = group.scripts.filter(view.decides);
  const heading = `${group.host ?? t('review.inline')} · ${group.vendor ?? t('review.no-vendor')}`;
  const rows = group.scripts.map((script) => {
    const zone = storeZone(view.stores, script.store_id);
    const why = decisionNeeded(script, request.now);
    return html`<tr>
<td>${view.decides(script) ? html`<input type="checkbox" id="pick-${script._id}" name="${scriptField(script._id)}" data-review-row aria-label="${t('review.pick', { src: script.src })}">` : null}</td>
<td><a href="${scriptPath(script._id)}" class="src">${script.src}</a></td>
<td>${names.get(script.store_id) ?? script.store_id}</td>
<td>${why ? t(WHY[why]) : null}</td>
<td>${script.expires_at ? time(request, script.expires_at, zone) : null}</td>
<td>${time(request, script.last_seen_at, zone)}</td>
</tr>`;
  });
  const column = (key: MessageKey) => html`<th scope="col">${t(key)}</th>`;
  const table = html`<table>
<thead><tr>${column('review.column.select')}${column('review.column.script')}${column('review.column.store')}${column('review.column.why')}${column('review.column.expires')}${column('review.column.last-seen')}</tr></thead>
<tbody>${rows}</tbody>
</table>`;
  const id = `group-${index}`;
  if (!decidable.length) return html`<section class="review-group" aria-labelledby="${id}"><h2 id="${id}">${heading}</h2>${table}</section>`;
  return html`<section class="review-group" aria-labelledby="${id}">
<h2 id="${id}">${heading}</h2>
<form method="post" action="${inboxPath(view.storeId)}" data-review-group>
${csrfField(request)}
${table}
${decidable.map((script) => html`<input type="hidden" name="${memberField(script._id)}" value="${script._id}">`)}
<div class="choice"><input type="checkbox" id="${id}-all" name="${WHOLE_GROUP}" data-select-group> <label for="${id}-all">${t('review.whole-group', { count: decidable.length })}</label></div>
<label for="${id}-justification">${t('review.justification')}</label>
<p class="hint" id="${id}-hint">${t('review.justification.hint')}</p>
<textarea id="${id}-justification" name="justification" rows="3" maxlength="2000" required aria-describedby="${id}-hint" data-justification>${group.justification}</textarea>
<p class="review-actions"><button type="submit" name="decision" value="authorize" data-decision="a">${t('review.authorize')}</button> <button type="submit" name="decision" value="block" class="secondary" data-decision="b">${t('review.block')}</button></p>
</form>
</section>`;
}

/** What needs a decision, grouped by host and vendor, each group its own form; the shortcuts are listed for all. */
export function reviewPage(request: DashboardRequest, view: ReviewView): Html {
  const { t } = request;
  return layout(
    request,
    t('review.title'),
    html`<p>${t('review.intro')}</p>
${outcome(request, view)}
<form method="get" action="${REVIEW}" role="search" aria-label="${t('review.filter')}">
<label for="store">${t('review.store')}</label>
<select id="store" name="store">${storeChoices(request, view.stores, view.storeId)}</select>
<button type="submit" class="secondary">${t('review.apply')}</button>
</form>
<details class="shortcuts" data-needs-script hidden><summary>${t('review.keys')}</summary>
<dl>${SHORTCUTS.map(([keys, what]) => html`<dt><kbd>${keys}</kbd></dt><dd>${t(what)}</dd>`)}</dl>
</details>
${view.groups.length ? view.groups.map((group, index) => groupSection(request, view, group, index)) : html`<p>${t('review.none')}</p>`}
${cursorPages(request, { first: view.paged ? inboxPath(view.storeId) : undefined, next: view.nextCursor ? inboxPath(view.storeId, view.nextCursor) : undefined }, { first: 'review.first', next: 'review.next', label: 'review.pages' })}`,
  );
}
