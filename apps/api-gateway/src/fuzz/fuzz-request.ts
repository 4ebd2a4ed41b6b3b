import fc from 'fast-check';
import { deeplyNested, hostileNumber, hostileString, hostileValue, malformedBodyText, PROTOTYPE_KEYS } from './hostile-values';
import type { Operation, Parameter } from './operations';
import { schemaValue, type SchemaSource } from './schema-values';

/** What the fuzzed requests can use to get past authentication and reach real resources. */
export interface FuzzContext {
  /** The document's schemas, and values that get a field past validation (a real store_id, a fresh domain). */
  source: SchemaSource;
  /** A token holding every scope, of a partner organization. */
  token: string;
  /** Ids of the caller's own resources by collection (`stores`, `scripts`, …, `organizations`: its child). */
  ids: Record<string, string[]>;
}

const everyId = (context: FuzzContext): string[] => Object.values(context.ids).flat();

/** The collection a path names first: `/api/v1/stores/{id}/pages` → `stores`. */
const collectionOf = (path: string): string => path.replace(/^\/api\/v1\//, '').split('/')[0];

/** One HTTP request as Fastify's inject takes it. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** Requests for one operation: mostly well-formed around one hostile part, sometimes hostile throughout. */
export function fuzzRequest(operation: Operation, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const hasBody = operation.body !== undefined;
  return fc
    .record({
      method: fc.oneof({ weight: 9, arbitrary: fc.constant(operation.method) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) }),
      path: pathOf(operation, context),
      query: queryOf(operation, context),
      authorization: authorizationOf(operation, context),
      idempotencyKey: operation.parameters.some((parameter) => parameter.name === 'Idempotency-Key') ? fc.option(headerValue, { freq: 2 }) : fc.constant(null),
      extraHeaders: fc.dictionary(fc.constantFrom('x-forwarded-for', 'if-none-match', 'accept', 'origin', 'content-encoding', 'accept-language'), headerValue, { maxKeys: 2 }),
      body: hasBody ? bodyOf(operation, context) : fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: bodyText(hostileValue) }),
      contentType: contentTypeOf,
    })
    .map(({ method, path, query, authorization, idempotencyKey, extraHeaders, body, contentType }) => {
      const headers: Record<string, string> = { ...extraHeaders };
      if (authorization !== null) headers.authorization = authorization;
      if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
      if (body !== undefined && contentType !== null) headers['content-type'] = contentType;
      const payload = body !== undefined && (BODY_METHODS.has(method) || method === 'GET') ? body : undefined;
      return printable({ method, url: path + query, headers, ...(payload === undefined ? {} : { payload }) });
    });
}

// ---- path ----------------------------------------------------------------------------------------------------

/**
 * Code unit by code unit, so that a lone surrogate (which `encodeURIComponent` refuses) is sent as the bytes a
 * careless client would send: its 3-byte WTF-8 form, which is not valid UTF-8.
 */
function percentEncode(text: string): string {
  return Array.from(text, (char) => {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    }
    return encodeURIComponent(char);
  }).join('');
}

const RAW_BAD_SEGMENTS = ['%', '%zz', '%E0%A4%A', '%ED%A0%80', '%00', '%2F', '..', '.', '%2e%2e', ' '];

function pathParameter(collection: string, context: FuzzContext): fc.Arbitrary<string> {
  const own = context.ids[collection]?.length ? context.ids[collection] : everyId(context);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...own) },
    { weight: 1, arbitrary: fc.constantFrom(...everyId(context)) },
    { weight: 1, arbitrary: fc.constantFrom(...own).map((id) => id.toUpperCase()) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: hostileString.map(percentEncode) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BAD_SEGMENTS) },
    { weight: 1, arbitrary: fc.integer({ min: 99, max: 400 }).map((length) => 'a'.repeat(length)) },
  );
}

function pathOf(operation: Operation, context: FuzzContext): fc.Arbitrary<string> {
  const names = operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
  if (names.length === 0) return fc.constant(operation.path);
  return fc.array(pathParameter(collectionOf(operation.path), context), { minLength: names.length, maxLength: names.length }).map((values) =>
    names.reduce((path, name, index) => path.replace(`{${name}}`, values[index]), operation.path),
  );
}

// ---- query ---------------------------------------------------------------------------------------------------

type QueryValue = string | string[];

function queryValue(parameter: Parameter, context: FuzzContext): fc.Arbitrary<QueryValue> {
  const hint = context.source.hints[parameter.name];
  const likely = (hint ?? schemaValue(parameter.schema, context.source)).map(String);
  const single = fc.oneof(
    { weight: 4, arbitrary: likely },
    { weight: 1, arbitrary: fc.constantFrom(...everyId(context)) },
    { weight: 3, arbitrary: hostileString },
    { weight: 1, arbitrary: hostileNumber.map(String) },
  );
  return fc.oneof({ weight: 6, arbitrary: single }, { weight: 1, arbitrary: fc.array(single, { minLength: 2, maxLength: 3 }) });
}

function queryOf(operation: Operation, context: FuzzContext): fc.Arbitrary<string> {
  const declared = operation.parameters.filter((parameter) => parameter.in === 'query');
  const known = fc.tuple(...declared.map((parameter) => fc.option(queryValue(parameter, context), { freq: 2 }).map((value) => [parameter.name, value] as const)));
  const unknownName = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, 'unknown', 'limit[$gt]', 'status[]', '__proto__[polluted]'), hostileString);
  const unknown = fc.array(fc.tuple(unknownName, hostileString), { maxLength: 2 });
  const rawTail = fc.option(fc.constantFrom('&', '=', '&&=', '%', '%zz', '=%E0%A4%A', '&a=%ED%A0%80', '#frag', '?x'), { freq: 8 });
  return fc.tuple(known, unknown, rawTail).map(([pairs, extra, tail]) => {
    const parts = [...pairs, ...extra].flatMap(([name, value]) =>
      value === null ? [] : (Array.isArray(value) ? value : [value]).map((item) => `${percentEncode(name)}=${percentEncode(item)}`),
    );
    const query = parts.join('&') + (tail ?? '');
    return query ? `?${query}` : '';
  });
}

// ---- headers -------------------------------------------------------------------------------------------------

/** What a header may carry on the wire (Node refuses other characters before sending). */
const isHeaderSafe = (text: string): boolean => /^[\t\x20-\x7e\x80-\xff]*$/.test(text);

const headerValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: hostileString.filter(isHeaderSafe) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }).filter(isHeaderSafe) },
  { weight: 1, arbitrary: fc.uuid() },
);

function authorizationOf(operation: Operation, context: FuzzContext): fc.Arbitrary<string | null> {
  const token = context.token;
  const wrong = fc.oneof(
    fc.constantFrom(`bearer ${token}`, `Bearer ${token} x`, `Bearer  ${token}`, `Bearer ${token.slice(0, -1)}0`, 'Bearer', 'Bearer ', `Basic ${Buffer.from('a:b').toString('base64')}`),
    headerValue.map((value) => `Bearer ${value}`),
    headerValue,
    fc.constant(`Bearer ${'a'.repeat(100_000)}`),
  );
  if (!operation.authenticated) return fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constant(`Bearer ${token}`) }, { weight: 1, arbitrary: wrong });
  return fc.oneof({ weight: 12, arbitrary: fc.constant(`Bearer ${token}`) }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: wrong });
}

const contentTypeOf: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json; charset=utf-16',
      'application/json, text/plain',
      'application/merge-patch+json',
      'application/csp-report',
      'application/reports+json',
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      '',
      ';',
      '*/*',
    ),
  },
  { weight: 1, arbitrary: headerValue },
  { weight: 1, arbitrary: fc.constant(null) },
);

// ---- body ----------------------------------------------------------------------------------------------------

const bodyText = (value: fc.Arbitrary<unknown>): fc.Arbitrary<string> => value.map((item) => JSON.stringify(item) ?? 'null');

type Path = Array<string | number>;

/** Every place in a JSON value where another value could stand (the root excluded), and one new key per object. */
function placesIn(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => [[...path, index], ...placesIn(item, [...path, index])]);
  if (typeof value !== 'object' || value === null) return [];
  return [
    [...path, 'unknown_field'],
    ...Object.entries(value).flatMap(([key, item]) => [[...path, key], ...placesIn(item, [...path, key])]),
  ];
}

function replacedAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? replacedAt(item, rest, replacement) : item));
  const fields = value as Record<string, unknown>;
  return { ...fields, [head]: replacedAt(fields[head], rest, replacement) };
}

/** A body the schema describes, with one place (a field, an item, a new key) holding a hostile value. */
function oneHostilePlace(operation: Operation, context: FuzzContext): fc.Arbitrary<string> {
  return schemaValue(operation.body!, context.source).chain((valid) => {
    const places = placesIn(valid);
    if (places.length === 0) return fc.constant(JSON.stringify(valid));
    return fc
      .tuple(fc.constantFrom(...places), fc.oneof(hostileValue, fc.constantFrom(...everyId(context))))
      .map(([place, hostile]) => JSON.stringify(replacedAt(valid, place, hostile)));
  });
}

/** A field of the body holding a nesting far past the limit, as raw text (JSON.stringify would recurse). */
function deepInField(operation: Operation, context: FuzzContext): fc.Arbitrary<string> {
  return fc
    .tuple(schemaValue(operation.body!, context.source), fc.constantFrom(40, 1_500, 50_000), fc.constantFrom<'array' | 'object'>('array', 'object'))
    .map(([valid, depth, kind]) => {
      const text = JSON.stringify(valid);
      return text.startsWith('{') && text !== '{}' ? `{"nested":${deeplyNested(depth, kind)},${text.slice(1)}` : deeplyNested(depth, kind);
    });
}

function bodyOf(operation: Operation, context: FuzzContext): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 3, arbitrary: bodyText(schemaValue(operation.body!, context.source)) },
    { weight: 6, arbitrary: oneHostilePlace(operation, context) },
    { weight: 1, arbitrary: deepInField(operation, context) },
    { weight: 1, arbitrary: malformedBodyText },
    { weight: 1, arbitrary: bodyText(hostileValue) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

// ---- reporting -----------------------------------------------------------------------------------------------

const excerpt = (text: string, max = 160): string => (text.length <= max ? text : `${text.slice(0, max)}…(${text.length} characters)`);

/** fast-check prints the shrunk counterexample with this: the request as one could replay it, long parts cut. */
function printable(request: FuzzRequest): FuzzRequest {
  return Object.assign(request, {
    [fc.toStringMethod]: () =>
      [
        `${request.method} ${excerpt(request.url)}`,
        ...Object.entries(request.headers).map(([name, value]) => `${name}: ${excerpt(value, 100)}`),
        ...(request.payload === undefined ? [] : ['', JSON.stringify(excerpt(request.payload, 600))]),
      ].join('\n'),
  });
}
