import { Inject } from '@nestjs/common';
import { BUS, type Bus, type CommandIds } from '@pss/bus';
import type { ChannelCommandEnvelope, InventoryCommandEnvelope } from '@pss/contracts';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import type { Principal } from '../auth/principal';

/**
 * What every resource controller of the API stands on: it answers reads from the read models, scoped to the
 * acting organization, and turns writes into commands to the owning service over the bus. Injected by property
 * (Nest's way for a base class), so a controller's constructor lists only what is its own.
 */
export abstract class ApiController {
  @Inject(READ_STORE) protected readonly readStore!: ReadStore;
  @Inject(BUS) protected readonly bus!: Bus;

  /**
   * A command on the resource `id` (none for a create) in the envelope inventory and the notifier read: the
   * acting organization and the actor (in the command metadata) come from the principal, never from the body.
   */
  protected send<Reply = unknown>(pattern: string, principal: Principal, id: string | undefined, input: object, commandIds?: CommandIds): Promise<Reply> {
    const envelope: InventoryCommandEnvelope | ChannelCommandEnvelope = { orgId: principal.actingOrgId, id, input };
    return this.bus.request<Reply>(pattern, envelope, { commandIds, actor: principal.actor });
  }
}
