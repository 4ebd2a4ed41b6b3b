import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { VENDOR_HOST } from './fixture-server';

/**
 * HTTPS before a local HTTP port, for what Chromium does on secure pages only (Reporting-Endpoints, report-to):
 * TLS ends here and the bytes go on to the port as they are. The certificate is made for the test by `openssl`
 * and trusted by `--ignore-certificate-errors` (chromium.ts).
 */
export class TlsFront {
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async before(target: number): Promise<TlsFront> {
    const server = createServer(throwawayCertificate(), (client) => {
      const upstream = connect(target, '127.0.0.1');
      for (const socket of [client, upstream]) {
        front.sockets.add(socket);
        socket.on('close', () => front.sockets.delete(socket)).on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const front = new TlsFront(server, (server.address() as { port: number }).port);
    return front;
  }

  /** The same URL through this front: `https:` and its port. */
  secure(url: string): string {
    const secure = new URL(url);
    secure.protocol = 'https:';
    secure.port = String(this.port);
    return secure.toString();
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function throwawayCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'pss-tls-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    const names = `subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:${VENDOR_HOST}`;
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', names], { stdio: 'ignore' });
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
