import { hashTimeline, type ScriptDocument } from '@pss/contracts';
import type { ScriptDetails } from '@pss/dashboard-reads';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import type { StoreChoice } from './email-channels';
import { layout, time } from './layout';

export const scriptPath = (scriptId: string): string => dashboardPath(`/scripts/${encodeURIComponent(scriptId)}`);

/** A store select's options, "all stores" first. */
export const storeChoices = (request: DashboardRequest, stores: StoreChoice[], chosen: string): Html =>
  html`<option value="">${request.t('inventory.all-stores')}</option>${stores.map(
    (store) => html`<option value="${store._id}"${store._id === chosen ? html` selected` : ''}>${store.name} (${store.domain})</option>`,
  )}`;

/** A value the inventory may not know yet (null): shown as a dash, not as "null". */
const known = (value: string | number | null | undefined): string => (value === null || value === undefined || value === '' ? '—' : String(value));

function facts(request: DashboardRequest, { script, store }: ScriptDetails): Html {
  const { t } = request;
  const at = (iso: string | null) => (iso ? time(request, iso, store.timezone) : '—');
  const row = (key: MessageKey, value: Html | string) => html`<dt>${t(key)}</dt><dd>${value}</dd>`;
  return html`<dl id="script-facts">
${row('script.src', html`<code>${script.src}</code>`)}
${row('script.store', `${store.name} (${store.domain})`)}
${row('script.type', script.type ? t(`script.type.${script.type}` as MessageKey) : '—')}
${row('script.category', known(script.category))}
${row('script.vendor', known(script.vendor_id))}
${row('script.status', t(`script.status.${script.status}` as MessageKey))}
${row('script.integrity', script.integrity_status ? t(`script.integrity.${script.integrity_status}` as MessageKey) : '—')}
${row('script.first-seen', at(script.first_seen_at))}
${row('script.last-seen', at(script.last_seen_at))}
${row('script.sightings', String(script.sightings))}
${row('script.sessions', String(script.sessions_count))}
${row('script.size', script.size_bytes === null ? '—' : t('script.bytes', { bytes: script.size_bytes }))}
${row('script.sri', script.integrity_attr ? html`${t('script.sri.pinned')} <code>${known(script.sri_hash)}</code>` : t('script.sri.none'))}
${row('script.current-hash', html`<code>${known(script.current_hash)}</code>`)}
${row('script.authorized-hash', html`<code>${known(script.authorized_hash)}</code>`)}
${row('script.expires', at(script.expires_at))}
${row('script.fields', script.sensitive_fields_accessed.length ? script.sensitive_fields_accessed.join(', ') : t('script.fields.none'))}
</dl>`;
}

function hashTimelineSection(request: DashboardRequest, { script, store, history }: ScriptDetails): Html {
  const { t } = request;
  if (!history?.hashes.length) return html`<p>${t('script.hashes.none')}</p>`;
  const rows = hashTimeline(history).map(
    (span) => html`<tr>
<td><code>${span.hash}</code>${span.hash === script.current_hash ? html` <strong>(${t('script.hashes.current')})</strong>` : null}</td>
<td>${time(request, span.first_seen_at, store.timezone)}</td>
<td>${time(request, span.last_seen_at, store.timezone)}</td>
</tr>`,
  );
  return html`<table id="hash-timeline"><thead><tr><th scope="col">${t('script.hashes.hash')}</th><th scope="col">${t('script.hashes.first')}</th><th scope="col">${t('script.hashes.last')}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The policies' part: a decision one made (authorized, sent back to review), and what each recommended and why, newest first. */
function policyPart(request: DashboardRequest, { script, store, history, policies }: ScriptDetails): Html {
  const { t } = request;
  const named = (policyId: string, version: number | null) => {
    const policy = policies.get(policyId);
    return policy ? t('script.policy.named', { name: policy.name, version: version ?? policy.version }) : policyId;
  };
  const decided =
    script.authorization_method === 'policy' && script.policy_id
      ? html`<p>${t('script.policy.decided', { policy: named(script.policy_id, script.policy_version), status: t(`script.status.${script.status}` as MessageKey) })} ${t('script.policy.why')} ${known(script.justification)}</p>`
      : null;
  const made = [...(history?.recommendations ?? [])].reverse();
  if (!decided && !made.length) return html`<p>${t('script.policy.none')}</p>`;
  return html`${decided}${made.length
    ? html`<ul id="recommendations">${made.map(
        (recommendation) =>
          html`<li>${time(request, recommendation.at, store.timezone)}: ${t('script.policy.recommends', { policy: named(recommendation.policy_id, recommendation.policy_version), action: t(`script.action.${recommendation.action}` as MessageKey) })} ${t('script.policy.why')} ${recommendation.justification}</li>`,
      )}</ul>`
    : null}`;
}

function reviews(request: DashboardRequest, script: ScriptDocument, timeZone: string): Html {
  const { t } = request;
  if (!script.reviews.length) return html`<p>${t('script.reviews.none')}</p>`;
  const rows = [...script.reviews].reverse().map(
    (review) => html`<tr>
<td>${time(request, review.at, timeZone)}</td>
<td>${t(`script.action.${review.action}` as MessageKey)}</td>
<td><code>${review.by}</code> (${review.method})</td>
<td>${known(review.justification)}</td>
</tr>`,
  );
  const column = (key: MessageKey) => html`<th scope="col">${t(key)}</th>`;
  return html`<table id="reviews"><thead><tr>${column('script.reviews.when')}${column('script.reviews.what')}${column('script.reviews.who')}${column('script.reviews.why')}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** Everything the inventory knows of one script: what it is, where and when it ran, its contents, who decided what and why. */
export function scriptPage(request: DashboardRequest, details: ScriptDetails): Html {
  const { t } = request;
  const { script, store, history, blockedBy } = details;
  return layout(
    request,
    t('script.title'),
    html`${facts(request, details)}
<section aria-labelledby="pages-title"><h2 id="pages-title">${t('script.pages')}</h2>
<p class="hint">${t('script.pages.hint')}</p>
${history?.pages.length ? html`<ul id="script-pages">${history.pages.map((path) => html`<li><code>${path}</code></li>`)}</ul>` : html`<p>${t('script.pages.none')}</p>`}</section>
<section aria-labelledby="hashes-title"><h2 id="hashes-title">${t('script.hashes')}</h2>${hashTimelineSection(request, details)}</section>
<section aria-labelledby="policy-title"><h2 id="policy-title">${t('script.policy')}</h2>${policyPart(request, details)}</section>
<section aria-labelledby="reviews-title"><h2 id="reviews-title">${t('script.reviews')}</h2>${reviews(request, script, store.timezone)}</section>
<section aria-labelledby="rule-title"><h2 id="rule-title">${t('script.rule')}</h2>
${blockedBy.length ? html`<ul id="block-rules">${blockedBy.map((rule) => html`<li>${rule.label} (<code>${rule.target}: ${rule.value}</code>)</li>`)}</ul>` : html`<p>${t('script.rule.none')}</p>`}</section>`,
  );
}
