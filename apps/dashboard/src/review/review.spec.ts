import type { ScriptDocument } from '@pss/contracts';
import { memberField, parseReviewForm, scriptField, WHOLE_GROUP } from './review-form';
import { recommendingPolicies, reviewGroups, startingJustification } from './review-groups';

const script = (id: string, host: string | null, vendor: string | null, recommended?: [string, string]) =>
  ({ _id: id, host, vendor_id: vendor, recommendation: recommended ? { policy_id: recommended[0], justification: recommended[1] } : null }) as unknown as ScriptDocument;

describe('the review inbox', () => {
  const scripts = [
    script('a', 'js.psp.example', 'psp', ['untemplated', 'Decided by policy "Review everything else"']),
    script('b', 'cdn.example', null),
    script('c', 'js.psp.example', 'psp', ['payments', 'Payment provider PSP on js.psp.example']),
    script('d', null, null),
  ];

  it('groups a page of scripts by host and vendor, in the order the groups first come', () => {
    expect(reviewGroups(scripts).map((group) => [group.key, group.scripts.map((one) => one._id)])).toEqual([
      ['js.psp.example|psp', ['a', 'c']],
      ['cdn.example|', ['b']],
      ['|', ['d']],
    ]);
  });

  it("starts the justification with the first of the group's recommendations by a policy with a template, as inventory filled it", () => {
    const [psp, cdn] = reviewGroups(scripts);
    expect(startingJustification(psp, new Set(['payments']))).toBe('Payment provider PSP on js.psp.example');
    expect(startingJustification(psp, new Set())).toBe('');
    expect(startingJustification(cdn, new Set(['payments']))).toBe('');
    expect(recommendingPolicies(scripts)).toEqual(['untemplated', 'payments']);
  });

  it('reads the ticked scripts, or the whole group, with the decision pressed and its justification', () => {
    const ticked = { decision: 'authorize', justification: ' Card form of our PSP ', [scriptField('a')]: 'on', [scriptField('c')]: 'on', [memberField('a')]: 'a', [memberField('c')]: 'c' };
    expect(parseReviewForm(ticked)).toEqual({ request: { decision: 'authorize', scriptIds: ['a', 'c'], justification: 'Card form of our PSP' } });
    const group = { decision: 'block', justification: 'Not ours', [WHOLE_GROUP]: 'on', [memberField('a')]: 'a', [memberField('c')]: 'c', [scriptField('a')]: 'on' };
    expect(parseReviewForm(group)).toEqual({ request: { decision: 'block', scriptIds: ['a', 'c'], justification: 'Not ours' } });
  });

  it('refuses no decision, no script, and a block without a justification; an authorization is left to the command', () => {
    expect(parseReviewForm({ decision: 'delete', [scriptField('a')]: 'on' })).toEqual({ error: { key: 'review.error.decision' } });
    expect(parseReviewForm({ decision: 'authorize', [memberField('a')]: 'a' })).toEqual({ error: { key: 'review.error.none' } });
    expect(parseReviewForm({ decision: 'block', justification: '  ', [scriptField('a')]: 'on' })).toEqual({ error: { key: 'review.error.justification' } });
    expect(parseReviewForm({ decision: 'authorize', justification: '', [scriptField('a')]: 'on' })).toEqual({ request: { decision: 'authorize', scriptIds: ['a'], justification: '' } });
  });
});
