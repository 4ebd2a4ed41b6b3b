/** A snapshot as the chain check sees it: its place, its hash, the hash it links to, and its data's hash as stored. */
export interface ChainLink {
  snapshotId: string;
  sequence: number;
  sha256: string;
  previousSha256: string | null;
  /** The sha256 of the data as it is in the file store now; null when the file is gone. */
  storedSha256: string | null;
  /** Retention removed its data (an on-demand snapshot past its time): data gone is no break, its links are checked. */
  expired: boolean;
}

export interface ChainBreak {
  sequence: number;
  snapshot_id: string;
  problem: string;
}

/**
 * What docs/reports.md tells an assessor to check, over a store's snapshots oldest first: places 1..n without
 * a gap, each snapshot linking to the sha256 of the one before (the first to none), and each one's data still
 * hashing to its sha256 (an expired snapshot's data may be gone: retention removed it on purpose). Every
 * break is named, not just the first: an operator wants the whole picture.
 */
export function chainBreaks(links: readonly ChainLink[]): ChainBreak[] {
  const breaks: ChainBreak[] = [];
  links.forEach((link, index) => {
    const at = (problem: string) => breaks.push({ sequence: link.sequence, snapshot_id: link.snapshotId, problem });
    const before = index > 0 ? links[index - 1] : undefined;
    if (link.sequence !== index + 1) at(`is at place ${link.sequence} on the chain, expected ${index + 1}`);
    const expected = before ? before.sha256 : null;
    if (link.previousSha256 !== expected) at(`previous_sha256 is ${link.previousSha256 ?? 'null'}, expected ${expected ?? 'null'}`);
    if (link.storedSha256 === null && !link.expired) at('its data is missing from the file store');
    else if (link.storedSha256 !== null && link.storedSha256 !== link.sha256) at(`its stored data hashes to ${link.storedSha256}, not its sha256`);
  });
  return breaks;
}
