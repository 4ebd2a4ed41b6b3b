import type { CommandMetaCarrier } from '@pss/bus';
import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { COMMANDS, type ScriptDecisionEnvelope, type SdkIngestCommand, type SdkRecordSightingsCommand } from '@pss/contracts';
import { SdkIngestion } from '../ingestion/sdk-ingestion.service';
import { DecideOnScript, type AuthorizeInput, type BlockInput } from './script-decisions';

/** Script commands and SDK batches arriving over the bus from the gateway. */
@Controller()
export class ScriptsMessages {
  constructor(
    private readonly commands: CommandBus,
    private readonly ingestion: SdkIngestion,
  ) {}

  @MessagePattern(COMMANDS.sdkIngest)
  ingest(@Payload() batch: SdkIngestCommand & CommandMetaCarrier) {
    return this.ingestion.ingest(batch);
  }

  @MessagePattern(COMMANDS.sdkRecordSightings)
  recordSightings(@Payload() command: SdkRecordSightingsCommand) {
    return this.ingestion.recordSightings(command);
  }

  @MessagePattern(COMMANDS.scriptAuthorize)
  authorize(@Payload() envelope: ScriptDecisionEnvelope<AuthorizeInput>) {
    return this.commands.execute(new DecideOnScript({ ...envelope, input: { kind: 'authorize', input: envelope.input } }));
  }

  @MessagePattern(COMMANDS.scriptBlock)
  block(@Payload() envelope: ScriptDecisionEnvelope<BlockInput>) {
    return this.commands.execute(new DecideOnScript({ ...envelope, input: { kind: 'block', input: envelope.input } }));
  }
}
