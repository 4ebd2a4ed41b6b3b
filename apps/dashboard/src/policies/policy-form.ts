import { POLICY_CONDITION_KEYS, POLICY_MATCH_KEYS, POLICY_TERMS_REFUSALS, type PolicyConditions, type PolicyDocument, type PolicyInput, type PolicyMatch } from '@pss/contracts';
import { DomainError } from '@pss/kernel';
import type { Requirement } from '../access/roles';
import { channelRequirement, scopeOf } from '../email-channels/email-channel-form';
import type { Translate } from '../i18n/catalogue';
import { fieldRefusalText } from '../i18n/refusals';
import type { CommandFormState } from '../pages/command-form';

/**
 * Who may create or change a policy: an organization-level one (null) decides on every store, so the organization
 * owner; a store's own, that store's owner too. The very rule of a channel's scope, so the scopes a person may create
 * (`creatableScopes`) are the same. Apply is judged by the store it runs on (see the routes).
 */
export const policyRequirement: (storeId: string | null) => Requirement = channelRequirement;

/** The match keys typed as lists, one item per line; `origin` is a single choice. */
export const MATCH_LISTS = POLICY_MATCH_KEYS.filter((key) => key !== 'origin');
export type MatchList = (typeof MATCH_LISTS)[number];

/** Conditions that hold a number; the others are yes/no. */
export const NUMBER_CONDITIONS = ['prevalence_min', 'max_size_kb'] as const satisfies readonly (keyof PolicyConditions)[];
export const YES_NO_CONDITIONS = POLICY_CONDITION_KEYS.filter((key) => !(NUMBER_CONDITIONS as readonly string[]).includes(key));

/** A yes/no condition's select: absent (`''`: not asked), `yes` or `no`. */
const yesNo = (value: string | undefined): boolean | undefined => (value === 'yes' ? true : value === 'no' ? false : undefined);
const linesOf = (text: string | undefined): string[] => (text ?? '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
/** Blank is "not set"; anything else goes to the command as typed, so its own check names what is wrong with it. */
const numberOf = (text: string | undefined): number | undefined => (text === undefined || text.trim() === '' ? undefined : Number(text));
const textOrNull = (text: string | undefined): string | null => (text === undefined || text.trim() === '' ? null : text);
const defined = <T extends object>(object: T): T => Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;

/** The match the form describes: a key left blank matches any script, so it is left out. */
function matchOf(form: Record<string, string>): PolicyMatch {
  const lists = Object.fromEntries(MATCH_LISTS.map((key) => [key, linesOf(form[`match.${key}`])]).filter(([, items]) => items.length));
  return defined({ origin: form['match.origin'] || undefined, ...lists });
}

function conditionsOf(form: Record<string, string>): PolicyConditions {
  const numbers = Object.fromEntries(NUMBER_CONDITIONS.map((key) => [key, numberOf(form[`conditions.${key}`])]));
  const flags = Object.fromEntries(YES_NO_CONDITIONS.map((key) => [key, yesNo(form[`conditions.${key}`])]));
  return defined({ ...numbers, ...flags });
}

/**
 * What the policy form sends as policyUpdate's input: every setting it shows, the whole match and conditions (so a
 * key cleared in the form is taken away); the scope is fixed at creation.
 */
export const policyChanges = (form: Record<string, string>): PolicyInput =>
  defined({
    name: form.name ?? '',
    description: textOrNull(form.description),
    active: form.active === 'on',
    mode: form.mode as PolicyInput['mode'],
    priority: numberOf(form.priority),
    match: matchOf(form),
    conditions: conditionsOf(form),
    action: form.action as PolicyInput['action'],
    justification_template: textOrNull(form.justification_template),
    expires_days: numberOf(form.expires_days) ?? null,
  });

/** policyCreate's input: the settings and the scope chosen (the organization, or one store). */
export const policyCreation = (form: Record<string, string>): PolicyInput => ({ ...policyChanges(form), store_id: scopeOf(form.store_id) });

/** A policy as the form shows it: lists one item per line, yes/no conditions as `yes`, `no` or blank. */
export function policyFormOf(policy: PolicyDocument): Record<string, string> {
  const text = (value: unknown): string => (value === undefined || value === null ? '' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value));
  const form: Record<string, string> = {
    name: policy.name,
    description: text(policy.description),
    active: policy.active ? 'on' : '',
    mode: policy.mode,
    priority: String(policy.priority),
    action: policy.action,
    justification_template: text(policy.justification_template),
    expires_days: text(policy.expires_days),
    'match.origin': text(policy.match.origin),
  };
  for (const key of MATCH_LISTS) form[`match.${key}`] = (policy.match[key] ?? []).join('\n');
  for (const key of POLICY_CONDITION_KEYS) form[`conditions.${key}`] = text(policy.conditions[key]);
  return form;
}

/**
 * A form the command refused, to show again: beside each field it named (400), a match or condition's refusal in the
 * person's language and any other in the command's words; or about no field (409: a suspended store, a rule that
 * exists; 404: gone). Any other failure is no refusal and goes on.
 */
export function formRefusal(t: Translate, error: unknown, values: Record<string, string>): { state: CommandFormState; status: number } {
  if (!(error instanceof DomainError) || error.code === 'service_unavailable') throw error;
  if (error.code === 'validation_error') {
    const refused = Object.fromEntries((error.details ?? []).map((detail) => [detail.field ?? '', fieldRefusalText(t, detail, POLICY_TERMS_REFUSALS)]));
    return { state: { values, refused }, status: 400 };
  }
  return { state: { values, reason: error.message }, status: error.code === 'not_found' ? 404 : 409 };
}
