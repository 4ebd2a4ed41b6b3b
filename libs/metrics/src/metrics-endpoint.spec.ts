import type { AddressInfo } from 'node:net';
import { listenForMetrics } from './metrics-endpoint';
import { Metrics } from './metrics';

describe('metrics on a listener of its own (METRICS_PORT)', () => {
  it('serves GET /metrics and nothing else', async () => {
    const metrics = new Metrics({ processMetrics: false });
    metrics.rateLimited('sdk_store');
    const server = await listenForMetrics(metrics, 0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const scrape = await fetch(`${base}/metrics`);
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await scrape.text()).toMatch(/^pss_rate_limit_refusals_total\{limit="sdk_store"\} 1$/m);
      expect((await fetch(`${base}/api/v1/stores`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

describe('gauges read at scrape time', () => {
  it('show what the reader gives, and say NaN for a failing reader instead of failing the scrape', async () => {
    const metrics = new Metrics({ processMetrics: false });
    let lag = 3;
    metrics.gauge('pss_test_lag', 'test', ['projection'], async () => [{ labels: { projection: 'stores' }, value: lag }]);
    metrics.gauge('pss_test_broken', 'test', [], async () => {
      throw new Error('read store down');
    });
    expect((await metrics.exposition()).body).toMatch(/^pss_test_lag\{projection="stores"\} 3$/m);
    lag = 0;
    const { body } = await metrics.exposition();
    expect(body).toMatch(/^pss_test_lag\{projection="stores"\} 0$/m);
    expect(body).toMatch(/^pss_test_broken nan$/im); // prom-client writes "Nan"; Prometheus parses any case
  });
});
