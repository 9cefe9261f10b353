/** One page of a list, whatever the wire family (`next_cursor` or `nextPageToken`). */
export interface PageResult<T> {
  items: T[];
  next: string | null;
}

/**
 * A list that walks every page. `for await (const item of list)` yields items;
 * `iterPages()` yields pages; the wire's cursor family stays hidden.
 */
export class PagedList<T> implements AsyncIterable<T> {
  constructor(private readonly fetchPage: (token: string | undefined) => Promise<PageResult<T>>) {}

  /** The first page only. */
  firstPage(): Promise<PageResult<T>> {
    return this.fetchPage(undefined);
  }

  /** Every page, in order, until the server says there is no next one. */
  async *iterPages(): AsyncGenerator<PageResult<T>> {
    let token: string | undefined;
    do {
      const page = await this.fetchPage(token);
      yield page;
      token = page.next ?? undefined;
    } while (token !== undefined);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.iterPages()) yield* page.items;
  }

  /** Collects every item (mind the size of the list). */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}
