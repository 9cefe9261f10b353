import { type ConversationDetail, type ConversationSummary, type QueryInputOf, getConversation, listConversations } from '@svc/contract';
import { PagedList } from '../core/pagination.js';
import type { Transport } from '../core/transport.js';

export type ConversationListFilter = Omit<NonNullable<QueryInputOf<typeof listConversations>>, 'cursor'>;

/** Production conversations (platform_a imports and platform_b spans). */
export class ConversationsResource {
  constructor(private readonly t: Transport) {}

  /** Newest first, every page: `for await (const c of svc.conversations.list({ source: 'platform_b' }))`. */
  list(filter: ConversationListFilter = {}): PagedList<ConversationSummary> {
    return new PagedList(async (cursor) => {
      const page = await this.t.request(listConversations, { query: { ...filter, cursor } });
      return { items: page.items, next: page.next_cursor };
    });
  }

  get(conversationId: string): Promise<ConversationDetail> {
    return this.t.request(getConversation, { params: { conversationId } });
  }
}
