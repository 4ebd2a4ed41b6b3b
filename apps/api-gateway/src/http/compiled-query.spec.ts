import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { ListAlertsQuery } from '../alerts/alert.dto';
import { ListQuery } from '../pagination/list-query.dto';
import { ListPoliciesQuery } from '../policies/policy.dto';
import { ListSnapshotsQuery, ReportFormatQuery, ReportQuery, ScheduleQuery, DeleteScheduleQuery } from '../reports/report.dto';
import { ReportFileQuery } from '../reports/report-files.query';
import { DeleteRuleQuery, ListRulesQuery } from '../rules/rule.dto';
import { ListScriptsQuery } from '../scripts/script.dto';
import { ListStoresQuery } from '../stores/store.dto';
import { compileQuery } from './compiled-query';
import { lowercaseUuids } from './lowercase-uuids';
import { validationPipe, VALIDATION_OPTIONS } from './validation';

const QUERY_DTOS: Array<new () => object> = [
  ListQuery,
  ListStoresQuery,
  ListScriptsQuery,
  ListAlertsQuery,
  ListPoliciesQuery,
  ListRulesQuery,
  DeleteRuleQuery,
  ListSnapshotsQuery,
  ReportFormatQuery,
  ReportQuery,
  ScheduleQuery,
  DeleteScheduleQuery,
  ReportFileQuery,
];

/** Values around every rule's edges: numbers at and past the limits, UUIDs in both cases, empty and long strings. */
const VALUES = ['1', '10', '100', '0', '101', '-1', '1.5', '1e2', '0x10', '050', ' 5', '', 'abc', 'x'.repeat(65), 'y'.repeat(513),
  '0190a4b2-8d3c-7e1f-9a2b-3c4d5e6f7a8b', '0190A4B2-8D3C-7E1F-9A2B-3C4D5E6F7A8B', '0190a4b2-8d3c-7e1f-9a2b-3c4d5e6f7a8',
  'needs_review', 'unknown', 'active', 'pdf', 'json', '2026-01-01', '2026-01-01T00:00:00Z'];

/** A seeded source, so a failure replays. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function valuesFor(dto: Function, field: string): string[] {
  const listed = getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', false, false)
    .filter((metadata) => metadata.propertyName === field && metadata.name === 'isIn')
    .flatMap((metadata) => (metadata.constraints[0] as unknown[]).map(String));
  return [...VALUES, ...listed, ...listed];
}

type Outcome = { accepted: unknown; prototype: unknown } | { refused: unknown };

async function outcome(pipe: ValidationPipe, query: unknown, metadata: ArgumentMetadata): Promise<Outcome> {
  try {
    const accepted = await pipe.transform(query, metadata);
    return { accepted: { ...(accepted as object) }, prototype: Object.getPrototypeOf(accepted) };
  } catch (error) {
    return { refused: error };
  }
}

describe('compiled query validation', () => {
  /** The reference: Nest's own pipe, then the ids lowered as the API's pipe lowers them. */
  const plainPipe = new (class extends ValidationPipe {
    override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
      return lowercaseUuids(metadata.metatype!, (await super.transform(value, metadata)) as object);
    }
  })(VALIDATION_OPTIONS);

  it.each(QUERY_DTOS.map((dto) => [dto.name, dto] as const))('%s: answers exactly what the ValidationPipe answers', async (_name, dto) => {
    const metadata: ArgumentMetadata = { type: 'query', metatype: dto, data: undefined };
    const fields = [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false).map((m) => m.propertyName))];
    const next = random(fields.length * 7919);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
    const compiled = compileQuery(dto);
    for (let round = 0; round < 400; round += 1) {
      const query: Record<string, unknown> = Object.create(null);
      for (const field of fields) if (next() < 0.3) query[field] = next() < 0.05 ? [pick(valuesFor(dto, field)), 'a'] : pick(valuesFor(dto, field));
      if (next() < 0.05) query.unknown_field = 'x';
      const expected = await outcome(plainPipe, query, metadata);
      expect({ query, answer: await outcome(validationPipe, query, metadata) }).toEqual({ query, answer: expected });
      if (compiled?.(query)) expect('accepted' in expected).toBe(true);
    }
  });

  it('takes the fast path for the common list queries, reading limit in decimal as the pipe does', () => {
    const storeId = '0190a4b2-8d3c-7e1f-9a2b-3c4d5e6f7a8b';
    const scripts = compileQuery(ListScriptsQuery)!;
    const accepted = scripts({ store_id: storeId, status: 'needs_review', type: 'unknown', limit: '50' });
    expect(accepted).toBeInstanceOf(ListScriptsQuery);
    expect({ ...accepted }).toEqual({ store_id: storeId, status: 'needs_review', type: 'unknown', limit: 50 });
    expect(compileQuery(ListStoresQuery)!({})).toEqual(new ListStoresQuery());
    expect(compileQuery(ListStoresQuery)!({ status: 'active', cursor: 'abc' })).toEqual(Object.assign(new ListStoresQuery(), { status: 'active', cursor: 'abc' }));
    // Left to the pipe, which words the 400: a refused value, an unknown field, a repeated one.
    expect(scripts({ status: 'nope' })).toBeUndefined();
    expect(scripts({ colour: 'red' })).toBeUndefined();
    expect([scripts({ category: '' }), scripts({ category: 'payment' })]).toEqual([undefined, expect.objectContaining({ category: 'payment' })]);
    expect(scripts({ status: ['needs_review', 'blocked'] })).toBeUndefined();
    expect(['1e2', '0x10', '1.0', ' 5'].map((limit) => scripts({ limit }))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('leaves DTOs with transforms to the pipe', () => {
    expect(compileQuery(ListRulesQuery)).toBeUndefined();
  });
});
