import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '@pss/kernel';
import { carriesBody } from '@pss/host';

/** Route config (`@RouteConfig(SDK_RAW_BODY)`) of the SDK routes that read their body as text. */
export const SDK_RAW_BODY = { sdkRawBody: true } as const;

/** What an SDK route receives: the body as text and the media type the client declared. */
export interface SdkBody {
  contentType: string;
  text: string;
}

const SDK_MEDIA_TYPE = 'application/x-pss-sdk-body';
/** What pages and browsers post: the SDK's batches and the two CSP report formats. No type at all is read as text. */
const ACCEPTED_MEDIA_TYPES = ['text/plain', 'application/json', 'application/csp-report', 'application/reports+json'];
const MEDIA_TYPE_NAME = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/i;

/**
 * Pages post with `text/plain` (no CORS preflight) or `application/json`, browsers post CSP reports as
 * `application/csp-report` or `application/reports+json`: on the SDK routes all of them are read as text under
 * the SDK's own size cap (Fastify's 413 beyond it, also for chunked bodies) and parsed by the route, so the
 * service-wide JSON parser, and its whole-body refusal of prototype keys, never sees them. The declared type is
 * swapped for a private one at `onRequest`, on these routes only.
 */
export function readSdkBodiesAsText(fastify: FastifyInstance, bodyLimit: number): void {
  const declared = new WeakMap<FastifyRequest, string>();
  fastify.addHook('onRequest', (request, reply, done) => {
    const config = request.routeOptions.config as { sdkRawBody?: boolean } | undefined;
    if (config?.sdkRawBody) {
      const contentType = String(request.headers['content-type'] ?? '');
      declared.set(request, contentType);
      request.headers['content-type'] = SDK_MEDIA_TYPE;
      // A refusal before the route runs (413 past the cap) stays readable by the page that posted, like every other answer.
      reply.header('Access-Control-Allow-Origin', '*');
      const mediaType = contentType.split(';')[0].trim().toLowerCase();
      if (mediaType && !ACCEPTED_MEDIA_TYPES.includes(mediaType) && carriesBody(request.headers)) return done(unsupported(mediaType));
    }
    done();
  });
  fastify.addContentTypeParser(SDK_MEDIA_TYPE, { parseAs: 'string', bodyLimit }, (request, text, done) => {
    const body: SdkBody = { contentType: declared.get(request) ?? '', text: String(text) };
    done(null, body);
  });
}

/** Named back only when it is a media type's name: an error never echoes what else a client sent. */
const unsupported = (mediaType: string): DomainError =>
  new DomainError(
    'unsupported_media_type',
    `${MEDIA_TYPE_NAME.test(mediaType) ? `Content-Type ${mediaType}` : 'This Content-Type'} is not supported here: send text/plain or application/json`,
  );

/** The SDK route's body, or an empty text when the request carried none. */
export function sdkBody(body: unknown): SdkBody {
  const candidate = body as Partial<SdkBody> | undefined;
  return typeof candidate?.text === 'string' ? { contentType: candidate.contentType ?? '', text: candidate.text } : { contentType: '', text: '' };
}
