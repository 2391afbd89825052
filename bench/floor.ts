import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * The floor: the least a durable submit can do. Parse the JSON body, insert it as one row (a JSON
 * column and a generated key) in one durable commit, answer the envelope. Run as its own process,
 * like the service, and driven with the same load. FLOOR_STORE=sqlite|postgres.
 */
const store = process.env['FLOOR_STORE'] ?? 'sqlite';
const app = Fastify({ logger: false });

let insert: (id: string, body: string) => Promise<void>;
if (store === 'sqlite') {
  const dir = process.env['DATA_DIR'] ?? './data-floor';
  mkdirSync(dir, { recursive: true });
  const db = new DatabaseSync(join(dir, 'floor.db'));
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS submissions (id TEXT PRIMARY KEY, body TEXT NOT NULL) STRICT');
  const statement = db.prepare('INSERT INTO submissions (id, body) VALUES (?, ?)');
  insert = async (id, body) => {
    statement.run(id, body); // autocommit: one fsync per request
  };
} else {
  const schema = process.env['DATABASE_SCHEMA'] ?? 'bench_floor';
  const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 16 });
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await pool.query(
    `CREATE TABLE IF NOT EXISTS "${schema}".submissions (id TEXT PRIMARY KEY, body JSONB NOT NULL)`,
  );
  const sql = `INSERT INTO "${schema}".submissions (id, body) VALUES ($1, $2)`;
  insert = async (id, body) => {
    await pool.query(sql, [id, body]);
  };
}

app.post('/mc-platformapi/v1/open/et/vs/card/apply', async (request) => {
  const id = randomUUID();
  await insert(id, JSON.stringify(request.body));
  return { code: 0, data: { busi_water_no: id }, msg: 'success' };
});

const url = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ url }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
