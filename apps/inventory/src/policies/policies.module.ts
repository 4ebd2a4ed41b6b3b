import { Module } from '@nestjs/common';
import { DefaultPolicySeeder } from './default-policy-seeder';
import { PolicyProjection } from './policy.projection';

/** Approval policies: the `policies` read model and the defaults every organization starts with. */
@Module({
  providers: [PolicyProjection, DefaultPolicySeeder],
})
export class PoliciesModule {}
