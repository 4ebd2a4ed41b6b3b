import type { Access } from '../access/access.service';
import type { RelyingParty } from '../access/passkey-ceremony';
import type { AttemptLimiter } from '../http/attempt-limiter';

/** What the dashboard's routes are built with (dashboard.module.ts provides it). */
export interface RouteDeps {
  access: Access;
  rp: RelyingParty;
  limits: { perAddress: AttemptLimiter; perAccount: AttemptLimiter };
}
