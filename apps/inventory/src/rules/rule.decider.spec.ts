import { createHash } from 'node:crypto';
import { deciderSpec } from '@pss/testkit';
import { ruleDecider, type RuleCommand, type RuleRequest } from './rule.decider';
import type { RuleEvent } from './rule.events';
import { ruleId } from './rule-key';

const at = new Date('2026-05-04T10:00:00.000Z');
const later = new Date('2026-05-04T11:00:00.000Z');
const request: RuleRequest = { orgId: 'org-1', storeId: 'store-1', type: 'block', target: 'domain', value: 'cdn.evil.example' };
const create = (change: Partial<RuleRequest> = {}): RuleCommand => ({ type: 'CreateRule', rule: { ...request, ...change }, at });
const ensure = (change: Partial<RuleRequest> = {}): RuleCommand => ({ type: 'EnsureRule', rule: { ...request, ...change }, at: later });
const id = ruleId({ storeId: 'store-1', type: 'block', target: 'domain', value: 'cdn.evil.example' });
const created: RuleEvent = {
  type: 'RuleCreated',
  data: {
    ruleId: id,
    orgId: 'org-1',
    storeId: 'store-1',
    type: 'block',
    target: 'domain',
    value: 'cdn.evil.example',
    label: 'Block cdn.evil.example',
    createdAt: at.toISOString(),
  },
};
const updated = (data: { label?: string; active?: boolean }): RuleEvent => ({
  type: 'RuleUpdated',
  data: { ruleId: id, storeId: created.data.storeId, ...data, updatedAt: later.toISOString() },
});
const deleted: RuleEvent = { type: 'RuleDeleted', data: { ruleId: id, storeId: created.data.storeId, deletedAt: later.toISOString() } };
const spec = deciderSpec(ruleDecider);
const valueOf = (command: RuleCommand) => (ruleDecider.decide(command, {})[0].data as { value: string }).value;

describe('rule decider', () => {
  it('creates an active rule with a default label', () => {
    spec.given([]).when(create()).then([created]);
  });

  it('keeps a label given, trimmed', () => {
    expect(ruleDecider.decide(create({ label: '  Skimmer host  ' }), {})[0].data).toMatchObject({ label: 'Skimmer host' });
  });

  describe('domain values', () => {
    it.each([
      ['CDN.Evil.Example', 'cdn.evil.example'],
      ['*.cdn.evil.example', 'cdn.evil.example'],
      ['https://cdn.evil.example/x.js', 'cdn.evil.example'],
      ['cdn.evil.example.', 'cdn.evil.example'],
      ['  cdn.evil.example ', 'cdn.evil.example'],
      ['bücher.example', 'xn--bcher-kva.example'],
      ['loja.exemplo.com.br', 'loja.exemplo.com.br'],
      // hosts that are not public names, as a script URL's hostname writes them: a script may come from any
      ['203.0.113.7', '203.0.113.7'],
      ['http://[2001:DB8::1]:8080/x.js', '[2001:db8::1]'],
      ['2001:db8::1', '[2001:db8::1]'],
      ['LOCALHOST', 'localhost'],
      ['cdn_1.evil.example', 'cdn_1.evil.example'],
    ])('normalizes %j to %j', (value, expected) => {
      expect(valueOf(create({ value }))).toBe(expected);
    });

    it.each([[''], ['evil .example'], ['*.'], ['a.*.example'], ['com.br'], ['co.uk'], ['com'], ['-evil']])('refuses %j', (value) => {
      spec.given([]).when(create({ value })).thenThrows('validation_error', /"field":"value"/);
    });
  });

  describe('url values', () => {
    it.each([
      ['https://CDN.Evil.Example/js/App.js?v=2#top', 'https://cdn.evil.example/js/App.js?v=2'],
      ['http://cdn.evil.example:80/a.js', 'http://cdn.evil.example/a.js'],
      ['https://cdn.evil.example', 'https://cdn.evil.example/'],
      ['https://bücher.example/a.js', 'https://xn--bcher-kva.example/a.js'],
    ])('normalizes %j to %j', (value, expected) => {
      expect(valueOf(create({ target: 'url', value }))).toBe(expected);
    });

    it.each([
      ['a URL without scheme', 'cdn.evil.example/a.js'],
      ['a relative URL', '/a.js'],
      ['an ftp URL', 'ftp://cdn.evil.example/a.js'],
      ['a javascript: URL', 'javascript:alert(1)'],
      ['a data: URL', 'data:text/javascript,1'],
      ['a URL over 2048 characters', `https://e.example/${'a'.repeat(2048)}`],
    ])('refuses %s', (_case, value) => {
      spec.given([]).when(create({ target: 'url', value })).thenThrows('validation_error', /"field":"value"/);
    });
  });

  describe('hash values', () => {
    const sha256 = createHash('sha256').update('alert(1)').digest('base64');
    const sha384 = createHash('sha384').update('alert(1)').digest('base64');
    const sha512 = createHash('sha512').update('alert(1)').digest('base64');

    it.each([
      [`sha256-${sha256}`, `sha256-${sha256}`],
      [`sha384-${sha384}`, `sha384-${sha384}`],
      [`sha512-${sha512}`, `sha512-${sha512}`],
      [`SHA384-${sha384}`, `sha384-${sha384}`],
      [`sha256-${sha256.replace(/=+$/, '')}`, `sha256-${sha256}`],
      [`sha256-${sha256.replace(/\+/g, '-').replace(/\//g, '_')}`, `sha256-${sha256}`],
    ])('normalizes %j', (value, expected) => {
      expect(valueOf(create({ target: 'hash', value }))).toBe(expected);
    });

    it.each([
      ['a bare digest', sha384],
      ['an unknown algorithm', `sha1-${createHash('sha1').update('x').digest('base64')}`],
      ['a digest of the wrong length for its algorithm', `sha256-${sha384}`],
      ['a digest one character short', `sha384-${sha384.slice(1)}`],
      ['a hex digest', `sha256-${createHash('sha256').update('x').digest('hex')}`],
      ['stray bits in the last character', `sha256-${sha256.slice(0, 42)}B=`],
      ['characters outside base64', `sha256-${sha256.slice(0, 40)}!!!=`],
    ])('refuses %s', (_case, value) => {
      spec.given([]).when(create({ target: 'hash', value })).thenThrows('validation_error', /"field":"value"/);
    });
  });

  it.each([
    ['an unknown type', { type: 'deny' }, 'type'],
    ['an unknown target', { target: 'ip' }, 'target'],
    ['a label over 200 characters', { label: 'x'.repeat(201) }, 'label'],
  ])('refuses %s', (_case, change, field) => {
    spec.given([]).when(create(change)).thenThrows('validation_error', new RegExp(`"field":"${field}"`));
  });

  it('cuts a default label that would be too long', () => {
    const value = `https://cdn.evil.example/${'a'.repeat(400)}.js`;
    const { label } = ruleDecider.decide(create({ target: 'url', value }), {})[0].data as { label: string };
    expect(label).toHaveLength(200);
    expect(label).toMatch(/^Block https:\/\/cdn\.evil\.example\/a+…$/);
  });

  it('derives the id from store, type, target and normalized value', () => {
    expect((ruleDecider.decide(create({ value: '*.CDN.evil.example' }), {})[0].data as { ruleId: string }).ruleId).toBe(id);
    const others = [{ storeId: 'store-2' }, { type: 'allow' }, { value: 'evil.example' }].map(
      (change) => (ruleDecider.decide(create(change), {})[0].data as { ruleId: string }).ruleId,
    );
    expect(new Set([id, ...others]).size).toBe(4);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('refuses to create a rule that exists, and creates one that was deleted again', () => {
    spec.given([created]).when(create()).thenThrows('conflict', /^A block rule for domain cdn\.evil\.example already exists/);
    const allowed = ruleDecider.decide(create({ type: 'allow' }), {});
    spec.given(allowed).when(create({ type: 'allow' })).thenThrows('conflict', /^An allow rule for domain/);
    spec.given([created, updated({ active: false })]).when(create()).thenThrows('conflict');
    spec.given([created, deleted]).when({ ...create(), at: later }).then([{ ...created, data: { ...created.data, createdAt: later.toISOString() } }]);
  });

  it('updates label and active, recording only what changes', () => {
    const update = (change: { label?: string; active?: boolean }): RuleCommand => ({ type: 'UpdateRule', orgId: 'org-1', ...change, at: later });
    spec.given([created]).when(update({ label: ' Skimmer ', active: false })).then([updated({ label: 'Skimmer', active: false })]);
    spec.given([created]).when(update({ label: 'Block cdn.evil.example', active: true })).thenNothingHappens();
    spec.given([created, updated({ active: false })]).when(update({ active: true })).then([updated({ active: true })]);
    spec.given([created]).when(update({ label: '   ' })).thenThrows('validation_error', /"field":"label"/);
  });

  it('deletes once; a deleted or foreign rule is not found', () => {
    spec.given([created]).when({ type: 'DeleteRule', orgId: 'org-1', at: later }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'DeleteRule', orgId: 'org-1', at: later }).thenThrows('not_found');
    spec.given([]).when({ type: 'DeleteRule', orgId: 'org-1', at: later }).thenThrows('not_found');
    spec.given([created]).when({ type: 'DeleteRule', orgId: 'org-2', at: later }).thenThrows('not_found');
    spec.given([created, deleted]).when({ type: 'UpdateRule', orgId: 'org-1', active: true, at: later }).thenThrows('not_found');
    spec.given([created]).when({ type: 'UpdateRule', orgId: 'org-2', label: 'mine', at: later }).thenThrows('not_found');
  });

  it('lifts a rule: deactivates it when it acts, and does nothing when it is absent, deleted or inactive', () => {
    const lift: RuleCommand = { type: 'LiftRule', orgId: 'org-1', at: later };
    spec.given([created]).when(lift).then([updated({ active: false })]);
    spec.given([created, updated({ active: false })]).when(lift).thenNothingHappens();
    spec.given([]).when(lift).thenNothingHappens();
    spec.given([created, deleted]).when(lift).thenNothingHappens();
    spec.given([created]).when({ ...lift, orgId: 'org-2' }).thenThrows('not_found');
  });

  it('ensures a rule: creates it, or re-activates and relabels the existing one', () => {
    spec.given([]).when(ensure()).then([{ ...created, data: { ...created.data, createdAt: later.toISOString() } }]);
    spec.given([created]).when(ensure()).thenNothingHappens();
    spec.given([created, updated({ active: false })]).when(ensure()).then([updated({ active: true })]);
    spec.given([created, updated({ active: false })]).when(ensure({ label: 'Blocked from review' })).then([updated({ label: 'Blocked from review', active: true })]);
    spec.given([created, deleted]).when(ensure({ label: 'Again' })).then([
      { ...created, data: { ...created.data, label: 'Again', createdAt: later.toISOString() } },
    ]);
  });
});
