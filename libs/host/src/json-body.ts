import type { FastifyInstance } from 'fastify';
import { DomainError, validationError } from '@pss/kernel';
import { forbiddenContent, MAX_JSON_DEPTH, nestsDeeperThan } from './json-guard';

/**
 * The only body parser of every route (routes that read their body otherwise register their own media type).
 * Fastify's built-in `text/plain` parser is removed: it handed the handler a string, which the validation pipe
 * then reported as missing fields, so a JSON body sent as `text/plain` got a misleading 400 instead of 415.
 * An empty body is no body: many clients send `Content-Type: application/json` with nothing on POSTs that take
 * none (rotate-key, test, apply). A body nested deeper than MAX_JSON_DEPTH is refused before it is parsed, and
 * one holding prototype keys or lone surrogates once parsed, all with 400 `validation_error`: nothing the
 * validation pipe, the deciders or a later merge could choke on gets past the parser.
 */
export function parseJsonBodies(fastify: FastifyInstance): void {
  // Bodies are read as sent: a compressed one would reach a parser as bytes, and be answered as malformed JSON.
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    const encoding = request.headers['content-encoding']?.trim();
    if (encoding && encoding.toLowerCase() !== 'identity' && carriesBody(request.headers)) {
      // Named back only when it is a coding's name: an error never echoes what else a client sent.
      const named = /^[a-z0-9-]{1,20}$/i.test(encoding) ? `Content-Encoding ${encoding}` : 'This Content-Encoding';
      throw new DomainError('unsupported_media_type', `${named} is not supported: send the body uncompressed`);
    }
    return payload;
  });
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(validationError([{ message: `JSON bodies may nest at most ${MAX_JSON_DEPTH} levels deep` }], 'Malformed JSON body'), undefined);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return done(new DomainError('validation_error', 'Malformed JSON body'), undefined);
    }
    const details = forbiddenContent(value);
    if (details.length > 0) return done(validationError(details), undefined);
    done(null, value);
  });
}

/** Whether a request comes with a body, told from its headers alone (before anything is read). */
export const carriesBody = (headers: { 'transfer-encoding'?: string; 'content-length'?: string }): boolean =>
  headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
