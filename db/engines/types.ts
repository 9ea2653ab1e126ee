import type { Kysely } from "kysely";
import type { Database } from "../schema";

export type DB = Kysely<Database>;
export type EngineName = "sqlite" | "postgres";

export interface TransactionOptions {
  /**
   * `false` commits without waiting for the disk: for writes that may lose their last second at a
   * power cut, and only those (the batched view counts, which wait up to a second in memory anyway).
   */
  durable?: boolean;
}

/** What each engine module (db/engines/*.ts) provides; models never branch on the engine. */
export interface EngineHandle {
  engine: EngineName;
  db: DB;
  /** Runs fn as one atomic write, one writer at a time (SQLite `BEGIN IMMEDIATE`; PostgreSQL a site-wide advisory lock). */
  transaction<T>(fn: (trx: DB) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * A number that changes when another connection or process committed a change that in-process
   * caches must see (SQLite `PRAGMA data_version`; PostgreSQL: notifications counted).
   */
  changeVersion(): number;
  /** Tells every other process that cached settings may be stale (PostgreSQL NOTIFY; SQLite needs none). */
  announceChange?(executor: DB): Promise<void>;
  /**
   * Sends a message to every process on every box of this site (PostgreSQL NOTIFY); SQLite runs
   * on one box, whose processes share what the message would say, so it has none.
   */
  broadcast?(message: string): Promise<void>;
  /** Calls fn with each broadcast message, this process's own included; answers the unsubscribe. */
  onBroadcast?(fn: (message: string) => void): () => void;
  /** At start: the server is reachable and fit, else an Error whose message is one plain line for an operator. */
  ready(): Promise<void>;
  /** Throws when the database cannot be read now (the health check). */
  probe(): Promise<void>;
  /** Planner statistics after start-up; periodic upkeep. */
  analyze(): Promise<void>;
  optimize(): Promise<void>;
  close(): Promise<void>;
}
