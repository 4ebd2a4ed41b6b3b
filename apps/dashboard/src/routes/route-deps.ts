import type { Bus } from '@pss/bus';
import type { ReadStore } from '@pss/read-store';
import type { Access } from '../access/access.service';
import type { RelyingParty } from '../access/passkey-ceremony';
import type { AttemptLimiter } from '../http/attempt-limiter';

/** What the dashboard's routes are built with (dashboard.module.ts provides it). */
export interface RouteDeps {
  access: Access;
  rp: RelyingParty;
  limits: { perAddress: AttemptLimiter; perAccount: AttemptLimiter };
  /** Writes other services own go over the bus as commands, with the person as actor (`actorOf`). */
  bus: Bus;
  /** The reads of `@pss/dashboard-reads`, always with the signed-in person's organization. */
  readStore: ReadStore;
}

/** Who the audit log names for a person's change: `user:<e-mail>`. */
export const actorOf = (member: { email: string }): string => `user:${member.email}`;
