import { uuidv7 } from '@pss/kernel';
import type { Document, Filter, UpdateSpec } from '../read-store.port';
import { applyUpdate } from './apply-update';

/**
 * The document an upsert inserts, built as MongoDB builds it: the filter's equality fields, then the update
 * operators, then `$setOnInsert`. Without an `_id` from the filter or the update, the id is a string (UUIDv7)
 * where MongoDB would make an ObjectId: read models are keyed by strings.
 */
export function upsertedDocument(filter: Filter, update: UpdateSpec): Document {
  const { _id: filterId, ...seed } = Object.fromEntries(equalityFields(filter));
  const id = [filterId, update.$setOnInsert?._id, update.$set?._id].find((value) => value !== undefined) ?? uuidv7();
  let doc = { _id: id } as Document;
  const { $setOnInsert, ...operators } = withoutUnchangedId(update, doc._id);
  doc = applyUpdate(doc, { $set: seed }) ?? doc;
  doc = applyUpdate(doc, operators) ?? doc;
  if ($setOnInsert) doc = applyUpdate(doc, { $set: $setOnInsert }) ?? doc;
  return doc;
}

/** mingo refuses any `$set` of `_id`; MongoDB accepts one that keeps the value, as whole-document `$set`s do. */
export function withoutUnchangedId(update: UpdateSpec, id: string): UpdateSpec {
  if (!Object.values(update).some((fields) => fields._id === id)) return update;
  return Object.fromEntries(
    Object.entries(update).map(([operator, fields]) => {
      if (fields._id !== id) return [operator, fields];
      const { _id: _unchanged, ...rest } = fields;
      return [operator, rest];
    }),
  );
}

function equalityFields(filter: Filter): Array<[string, unknown]> {
  return Object.entries(filter).flatMap(([path, condition]): Array<[string, unknown]> => {
    if (path === '$and' && Array.isArray(condition)) {
      return condition.flatMap((clause: Filter) => equalityFields(clause));
    }
    if (path.startsWith('$') || condition instanceof RegExp) return [];
    if (!isOperatorDocument(condition)) return [[path, condition]];
    return '$eq' in condition ? [[path, condition.$eq]] : [];
  });
}

function isOperatorDocument(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.keys(value).some((key) => key.startsWith('$'));
}
