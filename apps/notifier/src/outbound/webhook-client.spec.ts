import { lookup } from 'node:dns/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { HttpsReceiver, testCertificate } from '../testing/https-receiver';
import { WebhookClient, type Resolver, type WebhookClientOptions } from './webhook-client';

// Room for a first TLS handshake on a busy machine; the hanging receiver's test sets its own short timeout.
const TIMEOUT_MS = 5_000;
const headers = { 'Content-Type': 'application/json', 'X-Service-Event': 'test' };
const body = JSON.stringify({ id: 'evt_1', type: 'test', data: { note: 'ação ✓' } });

/** Test names resolve as the test says; every other name through the system's resolver. */
const resolving = (names: Record<string, string[]>): Resolver => async (hostname) =>
  names[hostname]?.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })) ?? lookup(hostname, { all: true });

describe('webhook client', () => {
  let receiver: HttpsReceiver;
  const clients: WebhookClient[] = [];
  const client = (options: Partial<WebhookClientOptions> = {}) => {
    const made = new WebhookClient({ timeoutMs: TIMEOUT_MS, extraCaPems: [testCertificate().cert], allowHosts: ['127.0.0.1'], ...options });
    clients.push(made);
    return made;
  };

  beforeAll(async () => (receiver = await HttpsReceiver.start()));
  afterEach(() => receiver.answerWith({ status: 200, body: 'ok' }));
  afterAll(async () => {
    clients.forEach((made) => made.close());
    await receiver.close();
  });

  it('POSTs the raw body with its headers over verified TLS, and takes only a 2xx as delivered', async () => {
    const allowed = client();
    receiver.answerWith({ status: 204 });
    expect(await allowed.post(receiver.url('/ok'), headers, body)).toEqual({ delivered: true, status: 204 });
    const [request] = await receiver.waitFor(1, '/ok');
    expect(request.raw.toString('utf8')).toBe(body);
    expect(request.headers).toMatchObject({ 'content-type': 'application/json', 'x-service-event': 'test', 'content-length': String(Buffer.byteLength(body)) });
  });

  it('fails on a 5xx with the start of its body, then succeeds once the receiver recovers', async () => {
    const allowed = client();
    receiver.answerWith({ status: 503, body: `Service   Unavailable\n${'x'.repeat(500)}` });
    const failed = await allowed.post(receiver.url('/flaky'), headers, body);
    expect(failed).toEqual({ delivered: false, error: `http_503: Service Unavailable ${'x'.repeat(180)}` });
    receiver.answerWith({ status: 200 });
    expect(await allowed.post(receiver.url('/flaky'), headers, body)).toEqual({ delivered: true, status: 200 });
  });

  it.each([301, 302])('takes a %i redirect as a failure and does not follow it', async (status) => {
    receiver.answerWith({ status, location: receiver.url('/elsewhere') });
    expect(await client().post(receiver.url('/moved'), headers, body)).toEqual({ delivered: false, error: `http_${status}:` });
    expect(receiver.received.filter((request) => request.path === '/elsewhere')).toEqual([]);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    receiver.answerWith('hang');
    expect(await client({ timeoutMs: 300 }).post(receiver.url('/slow'), headers, body)).toEqual({ delivered: false, error: 'timeout' });
  });

  it('names a network failure with a fixed word, never the error message (no address, port or OpenSSL internals)', async () => {
    const closed = await freePort();
    expect(await client().post(`https://127.0.0.1:${closed}/hook`, headers, body)).toEqual({ delivered: false, error: 'connection_refused' });
    const untrusting = await client({ extraCaPems: [] }).post(receiver.url('/untrusted'), headers, body);
    expect(untrusting).toEqual({ delivered: false, error: 'tls_error' });
    const unresolved = client({ allowHosts: ['nowhere.test'], resolve: async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' })) });
    expect(await unresolved.post('https://nowhere.test/hook', headers, body)).toEqual({ delivered: false, error: 'dns_error' });
    expect(await client().post('http://127.0.0.1/hook', headers, body)).toEqual({ delivered: false, error: 'the URL is not https' });
  });

  it('takes a receiver that does not speak TLS as a TLS error, not as what OpenSSL said of its bytes', async () => {
    const sockets: Socket[] = [];
    const plain = createServer((socket) => sockets.push(socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = plain.address() as AddressInfo;
      expect(await client().post(`https://127.0.0.1:${port}/hook`, headers, body)).toEqual({ delivered: false, error: 'tls_error' });
    } finally {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it("quotes a refusing receiver's body as printable text: no control, bidi or zero-width characters, no broken pair", async () => {
    receiver.answerWith({ status: 500, body: 'fail\u001b[2J\u202Eevil\u2066\u200b\r\nnext\u0007 line' });
    expect(await client().post(receiver.url('/garbled'), headers, body)).toEqual({ delivered: false, error: 'http_500: fail[2Jevil next line' });
    receiver.answerWith({ status: 502, body: `${'a'.repeat(199)}😀tail` });
    expect(await client().post(receiver.url('/garbled'), headers, body)).toEqual({ delivered: false, error: `http_502: ${'a'.repeat(199)}😀` });
  });

  it('reaches an allowed host name at the address its resolution gave', async () => {
    const named = client({ allowHosts: ['receiver.test', 'LOCALHOST'], resolve: resolving({ 'receiver.test': ['127.0.0.1'] }) });
    expect(await named.post(receiver.url('/named', 'receiver.test'), headers, body)).toEqual({ delivered: true, status: 200 });
    expect(await named.post(receiver.url('/named', 'localhost'), headers, body)).toEqual({ delivered: true, status: 200 });
  });

  describe('refuses private addresses before connecting', () => {
    let listener: Server;
    let connections = 0;
    let port: number;
    beforeAll(async () => {
      listener = createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      port = (listener.address() as AddressInfo).port;
    });
    afterAll(() => new Promise((resolve) => listener.close(resolve)));

    const guarded = () => client({ allowHosts: [], resolve: resolving({ 'rebind.test': ['127.0.0.1'], 'mixed.test': ['8.8.8.8', '127.0.0.1'], 'inner.test': ['10.0.0.7'] }) });

    it.each([
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f000001',
      '017700000001',
      '0177.0.0.1',
      '0x7f.1',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      '[64:ff9b::127.0.0.1]',
      'localhost',
      'LOCALHOST.',
      '0.0.0.0',
      '0',
      '[::]',
      '10.0.0.1',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '[fe80::1]',
      '[fc00::1]',
      'rebind.test',
      'mixed.test',
      'inner.test',
    ])('refuses https://%s', async (host) => {
      const outcome = await guarded().post(`https://${host}:${port}/hook`, headers, body);
      expect(outcome).toEqual({ delivered: false, error: 'blocked_address' });
      expect(connections).toBe(0);
    });
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
