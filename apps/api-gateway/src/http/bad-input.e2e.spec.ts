import { connect } from 'node:net';
import { SCOPES } from '@pss/contracts';
import { eventually, sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

/** Issue 12's reproductions: each answered 500 or in Fastify's own shape; each is a 4xx in the error shape now. */
describe('bad input gets a 4xx in the error shape (HTTP, embedded)', () => {
  const suite = embeddedSuite({ scopes: [...SCOPES], organization: { plan: 'enterprise', 'billing-mode': 'partner' } });
  let storeId: string;
  let sdkKey: string;

  beforeAll(async () => {
    ({ id: storeId, sdk_key: sdkKey } = await suite.newStore());
  });

  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  describe('JSON nested deeper than 32 levels', () => {
    const routesWithBodies = () => [
      ['POST', '/api/v1/stores'],
      ['PATCH', `/api/v1/stores/${storeId}`],
      ['POST', `/api/v1/stores/${storeId}/pages`],
      ['POST', '/api/v1/organizations'],
      ['POST', '/api/v1/rules'],
      ['POST', '/api/v1/policies'],
      ['POST', '/api/v1/webhooks'],
    ];

    it('is refused with 400 before validation, on every route with a body (it overflowed the stack at 1,500)', async () => {
      for (const [method, url] of routesWithBodies()) {
        const answer = await suite.service.request(method, url, { token: suite.token, body: `{"domain":"a.com.br","name":${nested(1_500)}}` });
        expect([method, url, answer.status, answer.body]).toEqual([
          method,
          url,
          400,
          { error: { code: 'validation_error', message: 'Malformed JSON body', details: [{ message: 'JSON bodies may nest at most 32 levels deep' }] } },
        ]);
      }
    });

    it('takes half a million levels (a 1 MB body) in its stride, and lets 32 through to validation', async () => {
      expect((await suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: nested(500_000) })).status).toBe(400);
      const atLimit = await suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: `{"domain":"a.com.br","name":${nested(31)}}` });
      expect(atLimit.body.error.details).toEqual([expect.objectContaining({ field: 'name' })]);
    });
  });

  it('refuses recipients and payment_pages holding arrays instead of objects (the store decider threw)', async () => {
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['POST', '/api/v1/stores', { domain: 'arrays-1.com.br', recipients: [[]] }, 'recipients'],
      ['POST', '/api/v1/stores', { domain: 'arrays-2.com.br', payment_pages: [[]] }, 'payment_pages'],
      ['PATCH', `/api/v1/stores/${storeId}`, { recipients: [['pix', 'key']] }, 'recipients'],
      ['POST', `/api/v1/stores/${storeId}/pages`, { payment_pages: [[]] }, 'payment_pages'],
    ];
    for (const [method, url, body, field] of cases) {
      const answer = await suite.service.request(method, url, { token: suite.token, body });
      expect([url, answer.status]).toEqual([url, 400]);
      expect(answer.body.error.details).toContainEqual({ field, message: `each item of ${field} must be an object` });
    }
  });

  it('refuses a lone surrogate in owner_email (the e-mail check threw) and in any other field, naming the field only', async () => {
    const organization = await suite.service.request('POST', '/api/v1/organizations', { token: suite.token, body: '{"name":"Loja","owner_email":"a\\ud800@loja.com.br"}' });
    expect(organization.status).toBe(400);
    expect(organization.body.error.details).toEqual([{ field: 'owner_email', message: 'owner_email must be well-formed Unicode text (it holds a lone surrogate)' }]);
    const store = await suite.service.request('PATCH', `/api/v1/stores/${storeId}`, { token: suite.token, body: '{"recipients":[{"method":"pix","key":"\\udc00"}]}' });
    expect(store.body.error.details).toEqual([{ field: 'recipients.0.key', message: expect.stringContaining('lone surrogate') }]);
  });

  it('gives one detail per field, naming the first rule it breaks, for nested arrays and rule lists too', async () => {
    const cases: Array<[string, unknown, Array<{ field: string; message: string }>]> = [
      ['/api/v1/stores', { domain: 'shape.example.com', payment_pages: {} }, [{ field: 'payment_pages', message: 'payment_pages must be an array' }]],
      ['/api/v1/stores', { domain: 'shape.example.com', recipients: [5] }, [{ field: 'recipients', message: 'each item of recipients must be an object' }]],
      [`/api/v1/stores/${storeId}/pages`, {}, [{ field: 'url_pattern', message: 'url_pattern must be a string' }, { field: 'payment_methods', message: 'payment_methods must be an array' }]],
      [`/api/v1/stores/${storeId}/pages`, { url_pattern: '/pay', payment_methods: [1] }, [{ field: 'payment_methods', message: 'each value in payment_methods must be a string' }]],
      ['/api/v1/policies', { name: 'Shapes', action: 'block', match: { domain: 'not-a-list' } }, [{ field: 'match.domain', message: 'match.domain must be an array' }]],
    ];
    for (const [url, body, details] of cases) {
      const answer = await suite.service.request('POST', url, { token: suite.token, body });
      expect([url, body, answer.status, answer.body.error.details]).toEqual([url, body, 400, details]);
    }
  });

  it('refuses prototype keys anywhere in a body, naming where', async () => {
    const answer = await suite.service.request('PATCH', `/api/v1/stores/${storeId}`, { token: suite.token, body: '{"recipients":[{"method":"pix","key":"k","__proto__":{"admin":true}}]}' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([{ field: 'recipients.0.__proto__', message: '__proto__ is not accepted as a field name' }]);
  });

  it('names an unknown field without sending a huge name back (it was echoed twice, 140 KB for a 70 KB name)', async () => {
    const answer = await suite.service.request('GET', `/api/v1/webhooks?${'a'.repeat(70_000)}=1`, { token: suite.token });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([{ field: `${'a'.repeat(100)}…`, message: `${'a'.repeat(500)}…` }]);
  });

  describe('what the HTTP layer refuses before a route runs', () => {
    it('answers bad percent-encoding in a path with 400, without echoing the path', async () => {
      const answer = await suite.service.request('GET', '/api/v1/stores/%E0%A4%A', { token: suite.token });
      expect([answer.status, answer.body]).toEqual([400, { error: { code: 'validation_error', message: 'Malformed URL: the path is not valid percent-encoding' } }]);
    });

    it('answers a path id over 100 characters with 414, without echoing the path', async () => {
      const answer = await suite.service.request('GET', `/api/v1/stores/${'x'.repeat(101)}`, { token: suite.token });
      expect([answer.status, answer.body]).toEqual([414, { error: { code: 'uri_too_long', message: 'A path parameter is longer than 100 characters' } }]);
      expect(answer.headers['x-request-id']).toEqual(expect.any(String));
    });

    it('answers a method a path does not serve with 405 and Allow, and an unknown path with 404', async () => {
      const put = await suite.service.request('PUT', `/api/v1/stores/${storeId}`, { token: suite.token });
      expect([put.status, put.headers.allow, put.body]).toEqual([
        405,
        'DELETE, GET, HEAD, PATCH',
        { error: { code: 'method_not_allowed', message: 'This path serves DELETE, GET, HEAD, PATCH only' } },
      ]);
      expect(put.headers['x-request-id']).toEqual(expect.any(String));
      expect((await suite.service.request('DELETE', '/api/v1/organizations', { token: suite.token })).headers.allow).toBe('GET, HEAD, POST');
      expect((await suite.service.request('PUT', '/api/v1/storesx', { token: suite.token })).status).toBe(404);
      // A trailing slash is another path: 404, never a 405 whose Allow names the method that was sent.
      for (const [method, path] of [['GET', `/api/v1/stores/${storeId}/`], ['GET', '/health/'], ['GET', '/sdk/v1/sdk.js/'], ['POST', '/sdk/v1/events/'], ['PUT', `/api/v1/stores/${storeId}/`]]) {
        const answer = await suite.service.request(method, path, { token: suite.token });
        expect([method, path, answer.status, answer.body.error.code]).toEqual([method, path, 404, 'not_found']);
      }
    });

    it('keeps unknown routes, wrong media types and oversized bodies in the shape', async () => {
      expect((await suite.service.request('GET', '/api/v1/nowhere', { token: suite.token })).body).toEqual({ error: { code: 'not_found', message: 'Route not found' } });
      const form = await suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: 'domain=a.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect([form.status, form.body.error.code]).toEqual([415, 'unsupported_media_type']);
      // JSON sent as text/plain is refused too, not read as a body with no fields
      const text = await suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: '{"domain":"plain.example.com"}', headers: { 'content-type': 'text/plain' } });
      expect([text.status, text.body.error.code]).toEqual([415, 'unsupported_media_type']);
      // A compressed body is named as such, not reported as malformed JSON; identity is no encoding at all.
      for (const [path, encoding] of [['/api/v1/stores', 'gzip'], [`/sdk/v1/events?key=${sdkKey}`, 'br'], [`/sdk/v1/csp?key=${sdkKey}`, 'deflate']]) {
        const zipped = await suite.service.request('POST', path, { token: suite.token, body: { domain: 'zipped.example.com' }, headers: { 'content-encoding': encoding } });
        expect([path, zipped.status, zipped.body.error]).toEqual([path, 415, { code: 'unsupported_media_type', message: `Content-Encoding ${encoding} is not supported: send the body uncompressed` }]);
        if (path.startsWith('/sdk/')) expect(zipped.headers['access-control-allow-origin']).toBe('*');
      }
      // The SDK routes read text/plain, JSON and the two CSP report formats, and nothing else.
      for (const [path, type, message] of [
        [`/sdk/v1/events?key=${sdkKey}`, 'application/xml', 'Content-Type application/xml is not supported here: send text/plain or application/json'],
        [`/sdk/v1/csp?key=${sdkKey}`, 'application/x-www-form-urlencoded; charset=utf-8', 'Content-Type application/x-www-form-urlencoded is not supported here: send text/plain or application/json'],
        [`/sdk/v1/events?key=${sdkKey}`, 'text/<b>', 'This Content-Type is not supported here: send text/plain or application/json'],
      ]) {
        const refused = await suite.service.request('POST', path, { body: { observations: [] }, headers: { 'content-type': type } });
        expect([path, refused.status, refused.body.error]).toEqual([path, 415, { code: 'unsupported_media_type', message }]);
        expect(refused.headers['access-control-allow-origin']).toBe('*');
      }
      const odd = await suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: {}, headers: { 'content-encoding': 'gzip; <script>' } });
      expect([odd.status, odd.body.error.message]).toEqual([415, 'This Content-Encoding is not supported: send the body uncompressed']);
      const identity = await suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: { domain: 'identity.example.com' }, headers: { 'content-encoding': 'Identity' } });
      expect(identity.status).toBe(201);
      const huge = await suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: { domain: 'a'.repeat(1_100_000) } });
      expect([huge.status, huge.body.error.code]).toEqual([413, 'payload_too_large']);
    });

    it('answers a body without a valid bearer token 401 before reading it, whatever the body', async () => {
      const bodies = [
        { body: '{bad' },
        { body: 'domain=a.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        { body: { domain: 'a'.repeat(1_100_000) } },
      ];
      const unknownToken = `pss_tok_${'0'.repeat(24)}_${'0'.repeat(32)}`;
      for (const [presented, message] of [[undefined, 'Missing or malformed bearer token'], [unknownToken, 'Invalid token']] as const) {
        for (const bad of bodies) {
          const answer = await suite.service.request('POST', '/api/v1/stores', { ...bad, token: presented });
          expect([answer.status, answer.body.error.message, answer.headers['www-authenticate']]).toEqual([
            401,
            message,
            'Bearer realm="Payment Page Script Security API"',
          ]);
        }
      }
    });
  });

  it('refuses unknown fields in the body or query string of an operation that takes none, and lets an empty one or org_id through', async () => {
    const rotate = (body: unknown) => suite.service.request('POST', `/api/v1/stores/${storeId}/rotate-key`, { token: suite.token, body });
    const unknown = await rotate({ reason: 'leaked', org_id: null });
    expect([unknown.status, unknown.body.error.details]).toEqual([400, [{ field: 'reason', message: 'reason is not a known field' }]]);
    const list = await suite.service.request('DELETE', `/api/v1/rules/${storeId}`, { token: suite.token, body: [1] });
    expect([list.status, list.body.error.details]).toEqual([400, [{ field: 'body', message: 'This operation takes no body other than an object with org_id' }]]);
    expect((await rotate({})).status).toBe(200);
    expect((await rotate(undefined)).status).toBe(200);
    const read = await suite.service.request('GET', `/api/v1/stores/${storeId}?bogus=1&limit=0`, { token: suite.token });
    expect([read.status, read.body.error.details.map((detail: { field: string }) => detail.field)]).toEqual([400, ['bogus', 'limit']]);
    expect((await suite.service.request('GET', `/api/v1/stores/${storeId}/status`, { token: suite.token })).status).toBe(200);
  });

  it('reads a UUID written in upper case as the id it names, in the query and in the body as in the path', async () => {
    const store = await suite.newStore();
    expect((await suite.service.reportSdk(store.sdk_key, [{ kind: 'script', src: `https://${store.domain}/app.js`, hash: sri('app') }])).status).toBe(202);
    const listed = (id: string) => suite.service.request('GET', `/api/v1/scripts?store_id=${id}`, { token: suite.token });
    const lower = await eventually(() => listed(store.id), (answer) => answer.body.data.length === 1);
    const upper = String(store.id).toUpperCase();
    expect((await listed(upper)).body).toEqual(lower.body);
    const schedule = await suite.service.request('POST', '/api/v1/reports/pci/schedule', { token: suite.token, body: { store_id: upper, cadence: 'weekly' } });
    expect([schedule.status, schedule.body.store_id]).toEqual([200, store.id]);
    expect((await suite.service.request('GET', `/api/v1/reports/pci/schedule?store_id=${upper}`, { token: suite.token })).body.data[0].store_id).toBe(store.id);
  });

  describe("what Node's HTTP parser refuses (a real socket: inject has no parser)", () => {
    let port: number;
    beforeAll(async () => {
      await suite.service.app.listen(0, '127.0.0.1');
      port = (suite.service.app.getHttpServer().address() as { port: number }).port;
    });

    /** Sends raw bytes and resolves with everything the server wrote back before closing. */
    const raw = (request: string) =>
      new Promise<{ status: number; requestId: string | undefined; body: unknown }>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString('utf8')));
        socket.on('error', reject);
        socket.on('close', () => {
          const [head, body] = received.split('\r\n\r\n');
          resolve({ status: Number(head.split(' ')[1]), requestId: /\r\nX-Request-Id: ([0-9a-f-]{36})\r\n/i.exec(head)?.[1], body: JSON.parse(body) });
        });
        socket.end(request);
      });

    it('answers a 100 KB Authorization header with 431 in the error shape', async () => {
      const answer = await raw(`GET /api/v1/stores HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(100_000)}\r\n\r\n`);
      expect(answer).toEqual({ status: 431, requestId: expect.any(String), body: { error: { code: 'headers_too_large', message: 'Request headers are too large' } } });
    });

    it('answers a malformed request line with 400 in the error shape', async () => {
      const answer = await raw('GET /api/v1/stores HTTP/9\r\n\r\n');
      expect(answer).toEqual({ status: 400, requestId: expect.any(String), body: { error: { code: 'validation_error', message: 'Malformed HTTP request' } } });
    });
  });
});
