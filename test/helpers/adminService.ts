import { after, before } from 'node:test';
import type { Role } from '../../src/access/roles.ts';
import { ADMIN, Applications, call, newOperator, type TestOperator } from './operators.ts';
import { newPartner, startService, type Reply, type TestService } from './service.ts';

/**
 * The admin API's test bench, shared by the admin test files (sessions, roles, applications,
 * management, audit): a service on one store, a partner, one operator per role, a request helper
 * and a snapshot of everything a refused request could have changed. Call it inside a `describe`:
 * it registers the suite's `before` and `after`, and its fields are set once `before` has run.
 */
export interface AdminBench {
  service: TestService;
  apps: Applications;
  appId: string;
  operators: Record<Role, TestOperator>;
  /** A request to `/admin/v1<path>` as the operator (or without a token). */
  as(operator: TestOperator | undefined, method: string, path: string, body?: unknown): Promise<Reply>;
  everything(): Promise<unknown>;
}

/** `env`: settings for the service beyond the tests' defaults (service.ts, stores.ts). */
export function adminBench(storeName: 'sqlite' | 'postgres', env: Record<string, string> = {}): AdminBench {
  const bench = { operators: {} } as AdminBench;
  bench.as = (operator, method, path, body) =>
    call(bench.service, method, `${ADMIN}${path}`, {
      ...(operator === undefined ? {} : { token: operator.token }),
      ...(body === undefined ? {} : { body }),
    });
  bench.everything = async () => {
    const db = bench.service.ctx.store.db;
    const count = async (table: 'audit_log' | 'events' | 'operator_sessions' | 'app_secrets') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      applications: await db
        .selectFrom('applications')
        .select(['busi_water_no', 'status', 'version', 'status_reason'])
        .orderBy('busi_water_no')
        .execute(),
      operators: await db
        .selectFrom('operators')
        .select(['username', 'role', 'disabled', 'password_hash'])
        .orderBy('username')
        .execute(),
      apps: await db.selectFrom('apps').select(['app_id', 'status']).orderBy('app_id').execute(),
      counts: await Promise.all(
        (['audit_log', 'events', 'operator_sessions', 'app_secrets'] as const).map(count),
      ),
      liveSessions: Number(
        (
          await db
            .selectFrom('operator_sessions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('revoked_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    };
  };
  before(async () => {
    bench.service = await startService(storeName, env);
    bench.apps = new Applications(bench.service);
    bench.appId = (await newPartner(bench.service)).appId;
    for (const role of ['viewer', 'reviewer', 'admin'] as const)
      bench.operators[role] = await newOperator(bench.service, role);
  });
  after(() => bench.service.close());
  return bench;
}
