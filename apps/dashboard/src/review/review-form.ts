import type { MessageKey } from '../i18n/catalogue';

export const REVIEW_DECISIONS = ['authorize', 'block'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** A checkbox's field: one per script, since a repeated field keeps its first value only. */
export const scriptField = (scriptId: string): string => `script.${scriptId}`;
/** The hidden field listing a group's scripts, which its "select the group" box decides on without the script. */
export const memberField = (scriptId: string): string => `in.${scriptId}`;
export const WHOLE_GROUP = 'group';

export interface ReviewRequest {
  decision: ReviewDecision;
  scriptIds: string[];
  justification: string;
}

export type ReviewFormError = { key: MessageKey };

/**
 * The inbox's form: a decision (the button pressed), the scripts ticked (or the whole group), and a justification.
 * The justification is required for a block too (issue 32: every decision justified for PCI DSS 6.4.3), though
 * the API's block leaves it optional; an authorization's is checked by the command, whose words are shown.
 */
export function parseReviewForm(form: Record<string, string>): { request: ReviewRequest } | { error: ReviewFormError } {
  const decision = REVIEW_DECISIONS.find((choice) => choice === form.decision);
  if (!decision) return { error: { key: 'review.error.decision' } };
  const prefix = form[WHOLE_GROUP] === 'on' ? 'in.' : 'script.';
  const scriptIds = Object.keys(form)
    .filter((field) => field.startsWith(prefix) && (prefix === 'in.' || form[field] === 'on'))
    .map((field) => field.slice(prefix.length));
  if (!scriptIds.length) return { error: { key: 'review.error.none' } };
  const justification = (form.justification ?? '').trim();
  if (decision === 'block' && !justification) return { error: { key: 'review.error.justification' } };
  return { request: { decision, scriptIds, justification } };
}
