import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { deserializeError } from '@pss/kernel';
import type { OpsArgs, OpsProgress, OpsReply } from './ops-command';

/** Runs one command on the process that serves `socketPath`. */
export function runRemote(socketPath: string, command: string, args: OpsArgs, progress: OpsProgress): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let settled = false;
    socket.once('connect', () => socket.write(`${JSON.stringify({ command, args })}\n`));
    socket.once('error', (error) => !settled && reject(error));
    createInterface({ input: socket }).on('line', (line) => {
      const reply = JSON.parse(line) as OpsReply;
      if (reply.type === 'progress') return progress(reply.progress);
      settled = true;
      if (reply.type === 'result') resolve(reply.result);
      else reject(deserializeError(reply.error));
    });
    socket.once('close', () => !settled && reject(new Error('the service closed the control connection without answering')));
  });
}
