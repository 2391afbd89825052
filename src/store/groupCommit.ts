import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './tables.ts';

/**
 * Group commit for the embedded store. SQLite pays one fsync per commit, and a durable commit is
 * what every submission must wait for; so transactions that arrive together are run one after the
 * other inside ONE transaction, each in its own savepoint, and all acknowledged after its single
 * commit. A unit that fails is rolled back to its savepoint and rejected alone; if the commit
 * fails, every unit of the batch is rejected, and none was acknowledged.
 *
 * Units still run strictly one at a time (SQLite has one writer), so each sees the effects of the
 * units before it, exactly as with separate transactions.
 */
export type Work<T> = (trx: Transaction<Database>) => Promise<T>;

interface Unit {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface GroupCommitter {
  transaction<T>(work: Work<T>): Promise<T>;
  /** Commits made and units committed so far: units / commits is the batching achieved. */
  stats(): { commits: number; units: number };
}

export function groupCommitter(db: Kysely<Database>, maxBatch = 128): GroupCommitter {
  let queue: Unit[] = [];
  let running = false;
  let commits = 0;
  let units = 0;

  async function runBatch(batch: Unit[]): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (const unit of batch) {
          await sql`savepoint unit`.execute(trx);
          try {
            const value = await unit.work(trx);
            await sql`release unit`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            await sql`rollback to unit`.execute(trx);
            await sql`release unit`.execute(trx);
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const unit of batch) unit.reject(error);
      return;
    }
    commits += 1;
    units += batch.length;
    batch.forEach((unit, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.error);
    });
  }

  function pump(): void {
    if (running || queue.length === 0) return;
    running = true;
    // Wait one turn of the event loop so that units arriving together share the commit.
    setImmediate(() => {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      void runBatch(batch).finally(() => {
        running = false;
        pump();
      });
    });
  }

  return {
    transaction<T>(work: Work<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work: work as Work<unknown>, resolve: resolve as (value: unknown) => void, reject });
        pump();
      });
    },
    stats: () => ({ commits, units }),
  };
}
