import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics';

export const METRICS_PATH = '/metrics';

/** `GET /metrics` on the service's own port (no token: keep the port private, docs/operations.md). */
export function serveMetricsRoute(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.get(METRICS_PATH, async (_request, reply) => {
    const { contentType, body } = await metrics.exposition();
    return reply.type(contentType).send(body);
  });
}

/**
 * `GET /metrics` on a listener of its own (METRICS_PORT), so the API port never shows it: bind it to a network
 * only the scraper reaches. Anything else on that port is 404.
 */
export async function listenForMetrics(metrics: Metrics, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== METRICS_PATH) {
      response.writeHead(404).end();
      return;
    }
    metrics.exposition().then(
      ({ contentType, body }) => response.writeHead(200, { 'Content-Type': contentType }).end(body),
      (error: Error) => response.writeHead(500, { 'Content-Type': 'text/plain' }).end(error.message),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
