import { spawnSync } from 'node:child_process';

const popplerMissing = spawnSync('pdftotext', ['-v']).error !== undefined;

/** `describe` where poppler's `pdftotext` is installed; elsewhere `describe.skip`, with one line saying why. */
export function describeWithPoppler(checks: string): jest.Describe {
  if (popplerMissing) process.stdout.write(`[skipped] ${checks}: pdftotext (poppler-utils) is not installed\n`);
  return popplerMissing ? describe.skip : describe;
}

/** `it` where poppler's `pdftotext` is installed; elsewhere `it.skip`, with one line saying why. */
export function itWithPoppler(check: string): jest.It {
  if (popplerMissing) process.stdout.write(`[skipped] ${check}: pdftotext (poppler-utils) is not installed\n`);
  return popplerMissing ? it.skip : it;
}
