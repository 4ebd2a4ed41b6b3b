import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Moves a written (and synced) temporary file to its name for good: the rename survives a power loss only once
 * the folder's entry is on disk too, so the folder is synced after it.
 */
export async function renameDurably(temporary: string, file: string): Promise<void> {
  await rename(temporary, file);
  const folder = await open(dirname(file), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
