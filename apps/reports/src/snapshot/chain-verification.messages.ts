import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { EVIDENCE_CHAIN_QUERIES, type EvidenceChainVerification, type VerifyEvidenceChainRequest } from '@pss/contracts';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { ownStore } from '@pss/store-reads';
import { ChainAudit } from './chain-audit';

/**
 * The evidence chain's check for the dashboard (issue 32), the one the operators' `reports verify-chain` runs:
 * only the reports service reads its stream and the file store's data. Another organization's store is not found.
 */
@Controller()
export class ChainVerificationMessages {
  constructor(
    private readonly chains: ChainAudit,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  @MessagePattern(EVIDENCE_CHAIN_QUERIES.chainVerify)
  async verify(@Payload() request: VerifyEvidenceChainRequest): Promise<EvidenceChainVerification> {
    await ownStore(this.readStore, request.orgId, request.storeId);
    return this.chains.verify(request.storeId);
  }
}
