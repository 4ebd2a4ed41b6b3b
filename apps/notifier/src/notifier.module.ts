import { Module } from '@nestjs/common';

/** Notification channels and signed webhook delivery with retries. */
@Module({})
export class NotifierModule {}
