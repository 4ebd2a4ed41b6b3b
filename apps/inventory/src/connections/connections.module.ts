import { Module } from '@nestjs/common';
import { ConnectionProjection } from './connection.projection';

/** The `connections` read model; SDK ingestion records the connections themselves (ConnectionSightings). */
@Module({ providers: [ConnectionProjection] })
export class ConnectionsModule {}
