import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { IssueTokenHandler } from './issue-token';
import { RecordTokenUseHandler } from './record-token-use';
import { RevokeTokenHandler } from './revoke-token';
import { TokenProjection } from './token.projection';
import { TokensMessages } from './tokens.messages';

@Module({
  imports: [CqrsModule],
  controllers: [TokensMessages],
  providers: [TokenProjection, IssueTokenHandler, RevokeTokenHandler, RecordTokenUseHandler],
})
export class TokensModule {}
