import { API_TOKENS, tokenListItem, tokenStatus, type ApiTokenDocument, type TokenListItem } from '@pss/contracts';
import type { ReadStore } from '@pss/read-store';

/** The organization's tokens, newest first, revoked and expired ones too (they stay listed), with their status at `now`. */
export async function listTokens(readStore: ReadStore, orgId: string, now: Date): Promise<TokenListItem[]> {
  const tokens = await readStore.collection<ApiTokenDocument>(API_TOKENS).find({ org_id: orgId }, { sort: { created_at: -1, _id: -1 } });
  return tokens.map((token) => tokenListItem(token, tokenStatus(token, now)));
}
