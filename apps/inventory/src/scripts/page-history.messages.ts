import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PAGE_AS_OF_SCRIPT_LIMIT,
  PAGE_HISTORY_QUERIES,
  PAYMENT_PAGES,
  SCRIPTS,
  type PaymentPageDocument,
  type ScriptDocument,
  type ScriptsOnPageAtReply,
  type ScriptsOnPageAtRequest,
} from '@pss/contracts';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { notFound, validationError } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { scriptOnPageAt } from './page-as-of';
import { isScriptEvent, scriptStream } from './script.events';

/** Script streams read at once: a large store's page stays one query without holding hundreds of reads open. */
const STREAMS_AT_ONCE = 20;

/**
 * A payment page as of a moment (issue 32): what an assessor asks for, and only the script streams know it. The
 * read model finds the store's scripts first seen by then (bounded, oldest first); each one's events are folded
 * up to the moment.
 */
@Controller()
export class PageHistoryMessages {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
  ) {}

  @MessagePattern(PAGE_HISTORY_QUERIES.scriptsOnPageAt)
  async scriptsOnPageAt(@Payload() request: ScriptsOnPageAtRequest): Promise<ScriptsOnPageAtReply> {
    const at = new Date(request.at);
    if (typeof request.at !== 'string' || Number.isNaN(at.getTime())) throw validationError([{ field: 'at', message: 'at must be an ISO 8601 date-time' }]);
    const page = await this.readStore
      .collection<PaymentPageDocument>(PAYMENT_PAGES)
      .findOne({ _id: request.pageId, store_id: request.storeId, org_id: request.orgId });
    if (!page) throw notFound('Payment page');
    const candidates = await this.readStore
      .collection<ScriptDocument>(SCRIPTS)
      .find({ org_id: request.orgId, store_id: request.storeId, first_seen_at: { $lte: at.toISOString() } }, { sort: { first_seen_at: 1, _id: 1 }, limit: PAGE_AS_OF_SCRIPT_LIMIT + 1 });
    const looked = candidates.slice(0, PAGE_AS_OF_SCRIPT_LIMIT);
    const scripts = [];
    for (let start = 0; start < looked.length; start += STREAMS_AT_ONCE) {
      const batch = looked.slice(start, start + STREAMS_AT_ONCE);
      const folded = await Promise.all(
        batch.map(async (script) => scriptOnPageAt((await this.eventStore.readStream(scriptStream(script._id))).filter(isScriptEvent), at, page.url_pattern)),
      );
      scripts.push(...folded.filter((script) => script !== null));
    }
    return { store_id: request.storeId, page_id: page._id, url_pattern: page.url_pattern, at: at.toISOString(), scripts, truncated: candidates.length > PAGE_AS_OF_SCRIPT_LIMIT, limit: PAGE_AS_OF_SCRIPT_LIMIT };
  }
}
