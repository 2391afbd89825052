import type { Command } from 'commander';
import type { FastifyInstance } from 'fastify';

/**
 * What the service answers and what the CLI does, as tables: the audit tests list every write
 * (test/audit/auditCompleteness.test.ts) and every read of the trail (auditReads.test.ts) from
 * them, so a route or command added later without a case fails those tests.
 */

/** `METHOD /path/:param` of every route, from `printRoutes` (the tree gives relative paths). */
export function routeTable(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*) \(([A-Z, ]+)\)$/.exec(line);
    if (m === null) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const full = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = full;
    for (const method of m[3]!.split(', ')) routes.push(`${method} ${full}`);
  }
  return routes;
}

/** Leaf commands of the CLI, as `group sub` (or `name`). */
export function commandTable(program: Command, prefix = ''): string[] {
  return program.commands.flatMap((c) =>
    c.commands.length > 0 ? commandTable(c, `${prefix}${c.name()} `) : [`${prefix}${c.name()}`],
  );
}
