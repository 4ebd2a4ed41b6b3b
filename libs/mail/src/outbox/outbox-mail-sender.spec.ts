import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@pss/testkit';
import { mailSenderConformance, type ReceivedMail } from '../mail-sender.conformance';
import { OUTBOX_EXTENSION, OutboxMailSender, type OutboxFile } from './outbox-mail-sender';

const FROM = 'PSS <no-reply@pss.example>';
const clock = new ManualClock('2026-04-01T12:00:00.000Z');

const outboxFiles = (directory: string): OutboxFile[] => {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith(OUTBOX_EXTENSION)).map((name) => JSON.parse(readFileSync(join(directory, name), 'utf8')));
};

mailSenderConformance('outbox', async () => {
  const root = mkdtempSync(join(tmpdir(), 'pss-outbox-'));
  const directory = join(root, 'outbox');
  return {
    sender: new OutboxMailSender(directory, FROM, clock),
    received: async () =>
      outboxFiles(directory).map(({ to, subject, text, html }): ReceivedMail => ({ to, subject, text, ...(html !== undefined ? { html } : {}) })),
    cleanup: async () => rmSync(root, { recursive: true, force: true }),
  };
});

describe('outbox mail sender', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pss-outbox-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes one JSON file per message with its sender and time, and leaves no temporary file behind', async () => {
    const directory = join(root, 'outbox');
    await new OutboxMailSender(directory, FROM, clock).send({ to: 'a@acme.example', subject: 'Hi', text: 'Hello' });
    const names = readdirSync(directory);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^[0-9a-f-]{36}\.json$/);
    expect(outboxFiles(directory)[0]).toEqual({
      id: names[0].replace(OUTBOX_EXTENSION, ''),
      from: FROM,
      to: 'a@acme.example',
      subject: 'Hi',
      text: 'Hello',
      created_at: '2026-04-01T12:00:00.000Z',
    });
  });

  it('fails the send when the outbox cannot be written, leaving nothing half-written', async () => {
    const blocked = join(root, 'outbox');
    writeFileSync(blocked, 'not a folder');
    await expect(new OutboxMailSender(blocked, FROM, clock).send({ to: 'a@acme.example', subject: 'Hi', text: 'Hello' })).rejects.toThrow();
    expect(readdirSync(root)).toEqual(['outbox']);
  });
});
