import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { DomainError } from '@pss/kernel';
import { HttpDomainError } from '../http/exceptions.filter';
import { answerSdkEventsBeforeNest, SDK_EVENTS_URL, type SdkEventsHandler } from './sdk-events-route';

/**
 * The hook in front of Nest: a stand-in route plays Nest's router, so a request it answers is one the hook let
 * through. The answers themselves are the SDK routes' own (sdk-ingestion.e2e.spec.ts runs them through the hook).
 */
describe('POST /sdk/v1/events before Nest', () => {
  let fastify: FastifyInstance;
  let handle: jest.Mock<Promise<unknown>, [FastifyRequest, unknown]>;

  beforeEach(async () => {
    fastify = Fastify();
    handle = jest.fn();
    const controller: SdkEventsHandler = { postEvents: (request, body) => handle(request, body) };
    answerSdkEventsBeforeNest(fastify, controller);
    const router = async () => ({ answeredBy: 'router' });
    fastify.post(SDK_EVENTS_URL, router);
    fastify.options(SDK_EVENTS_URL, router);
    fastify.post('/sdk/v1/csp', router);
    await fastify.ready();
  });
  afterEach(() => fastify.close());

  const post = (url: string, payload: object = { observations: [] }) => fastify.inject({ method: 'POST', url, payload });

  it('answers with the handler’s result and the route’s 202, given the request and the body', async () => {
    handle.mockResolvedValue({ accepted: 1, rejected: 0, rejections: [] });
    const answer = await post(`${SDK_EVENTS_URL}?key=pk_live_x`, { observations: [{ kind: 'script' }] });
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toEqual({ accepted: 1, rejected: 0, rejections: [] });
    const [request, body] = handle.mock.calls[0];
    expect(request.query).toEqual({ key: 'pk_live_x' });
    expect(body).toEqual({ observations: [{ kind: 'script' }] });
  });

  it('answers errors in the exception filter’s shape, with their headers', async () => {
    handle.mockRejectedValueOnce(new DomainError('unauthorized', 'Invalid SDK key'));
    const refused = await post(SDK_EVENTS_URL);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ error: { code: 'unauthorized', message: 'Invalid SDK key' } });

    handle.mockRejectedValueOnce(new HttpDomainError('rate_limited', 'Rate limit exceeded; retry after 7 seconds', { 'Retry-After': '7' }));
    const limited = await post(SDK_EVENTS_URL);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');
    expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: 'Rate limit exceeded; retry after 7 seconds' } });

    handle.mockRejectedValueOnce(new Error('a bug'));
    const failed = await post(SDK_EVENTS_URL);
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ error: { code: 'internal_error', message: 'Internal error' } });
  });

  it('leaves every other route and method to the router', async () => {
    expect((await post('/sdk/v1/csp')).json()).toEqual({ answeredBy: 'router' });
    expect((await fastify.inject({ method: 'OPTIONS', url: SDK_EVENTS_URL })).json()).toEqual({ answeredBy: 'router' });
    expect(handle).not.toHaveBeenCalled();
  });
});
