// The messages between the page keeper (app/page-store/page-keeper.server.ts) and its worker
// thread (page-keeper.ts): one page a message, answered in order (issue 30 item 0).

/** What the worker is started with: pages.db and the store's budget in bytes. */
export interface KeeperData {
  file: string;
  maxBytes: number;
}

/** A page rendered and sent, to be compressed and stored unless an invalidation came since `generation`. */
export interface KeepJob {
  id: number;
  key: string;
  status: number;
  headers: [string, string][];
  /** The plain body (a copy: the reader's response may still be writing the original). */
  body: Uint8Array;
  etag: string;
  tags: string[];
  generation: number;
}

/** Whether the page was stored (not when an invalidation came first, or it is past the budget), or why it failed. */
export type KeepReply = { id: number; kept: boolean } | { id: number; failed: string };
