import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { uuidv7, type Clock } from '@pss/kernel';
import { assertSendable, type MailMessage, type MailSender } from '../mail-sender.port';

/** One file of the outbox: the message as it would have been sent. */
export interface OutboxFile extends MailMessage {
  id: string;
  from: string;
  created_at: string;
}

export const OUTBOX_EXTENSION = '.json';

/**
 * The embedded adapter: every message becomes one JSON file in the outbox folder, named by a time-ordered id.
 * Written to a hidden temporary file and renamed into place, so a reader never sees half a message.
 */
export class OutboxMailSender implements MailSender {
  constructor(
    private readonly directory: string,
    private readonly from: string,
    private readonly clock: Clock,
  ) {}

  async send(message: MailMessage): Promise<void> {
    assertSendable(message);
    const at = this.clock.now();
    const id = uuidv7(at.getTime());
    const file: OutboxFile = { id, from: this.from, ...message, created_at: at.toISOString() };
    // Created on demand, not at start: a data directory made read-only later fails the send, not the service.
    await mkdir(this.directory, { recursive: true });
    const temporary = join(this.directory, `.${id}.tmp`);
    try {
      await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { flag: 'wx' });
      await rename(temporary, join(this.directory, `${id}${OUTBOX_EXTENSION}`));
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
  }
}
