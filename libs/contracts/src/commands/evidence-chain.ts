export const EVIDENCE_CHAIN_QUERIES = {
  chainVerify: 'reports.chain.verify',
} as const;

/** `reports.chain.verify`: a store's evidence chain checked as `reports verify-chain` checks it. */
export interface VerifyEvidenceChainRequest {
  orgId: string;
  storeId: string;
}

/** One break of the chain: the snapshot at `sequence` and what is wrong with it. */
export interface EvidenceChainBreak {
  sequence: number;
  snapshot_id: string;
  problem: string;
}

/**
 * The chain as recorded (the reports service's stream), every snapshot's stored data hashed again: places 1..n
 * without a gap, each linking to the sha256 of the one before, each one's data still hashing to its sha256.
 */
export interface EvidenceChainVerification {
  store_id: string;
  snapshots: number;
  /** On-demand snapshots whose data retention removed: on the chain, their data not checked. */
  expired: number;
  head_sha256: string | null;
  ok: boolean;
  breaks: EvidenceChainBreak[];
}
