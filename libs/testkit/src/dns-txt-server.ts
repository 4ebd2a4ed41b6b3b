import { createSocket, type RemoteInfo } from 'node:dgram';
import type { AddressInfo } from 'node:net';

const TXT = 16;
const NXDOMAIN = 3;

/** A DNS responder on loopback that answers TXT queries from a table the test edits. */
export interface DnsTxtServer {
  /** `127.0.0.1:<port>`, as `Resolver.setServers` and a `DNS_SERVERS` setting take it. */
  readonly address: string;
  /** Publishes (or, with no values, withdraws) the TXT strings of a name. */
  setTxt(name: string, values: string[]): void;
  close(): Promise<void>;
}

/**
 * Encodes answers by hand (no DNS library is installed): a domain-ownership check is only proven against a real
 * resolver talking UDP, and this is the smallest server a `node:dns` Resolver accepts.
 */
export async function startDnsTxtServer(): Promise<DnsTxtServer> {
  const records = new Map<string, string[]>();
  const socket = createSocket('udp4');
  socket.on('message', (query: Buffer, from: RemoteInfo) => {
    const reply = answer(query, records);
    if (reply) socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    setTxt: (name, values) => (values.length ? records.set(canonical(name), values) : records.delete(canonical(name))),
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function canonical(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** The reply to one query: its header and question echoed, then the name's TXT answers, or NXDOMAIN. */
function answer(query: Buffer, records: Map<string, string[]>): Buffer | undefined {
  const question = readQuestion(query);
  if (!question) return undefined;
  const values = question.type === TXT ? records.get(question.name) : undefined;
  const answers = (values ?? []).map(txtAnswer);
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  const recursionDesired = query[2] & 0x01;
  header.writeUInt16BE(0x8480 | (recursionDesired << 8) | (values ? 0 : NXDOMAIN), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  return Buffer.concat([header, query.subarray(12, question.end), ...answers]);
}

function readQuestion(query: Buffer): { name: string; type: number; end: number } | undefined {
  if (query.length < 12 || query.readUInt16BE(4) !== 1) return undefined;
  const labels: string[] = [];
  let offset = 12;
  while (offset < query.length && query[offset] !== 0) {
    const length = query[offset];
    labels.push(query.toString('latin1', offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  if (offset + 5 > query.length) return undefined;
  return { name: canonical(labels.join('.')), type: query.readUInt16BE(offset + 1), end: offset + 5 };
}

/** One TXT record for the question's name (a pointer to offset 12), one character-string per 255 bytes. */
function txtAnswer(value: string): Buffer {
  const text = Buffer.from(value, 'utf8');
  const strings: Buffer[] = [];
  for (let start = 0; start < text.length || start === 0; start += 255) {
    const chunk = text.subarray(start, start + 255);
    strings.push(Buffer.from([chunk.length]), chunk);
  }
  const data = Buffer.concat(strings);
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0);
  fixed.writeUInt16BE(TXT, 2);
  fixed.writeUInt16BE(1, 4);
  fixed.writeUInt32BE(0, 6);
  fixed.writeUInt16BE(data.length, 10);
  return Buffer.concat([fixed, data]);
}
