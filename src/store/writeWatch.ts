import {
  AliasNode,
  DeleteQueryNode,
  TableNode,
  UpdateQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * Tells listeners when this process has changed rows of a table (an UPDATE or DELETE through the
 * query builder, once the statement has run): what a process caches from the store it can drop as
 * soon as it changes the rows itself. Other processes' changes are not seen; a cache must bound
 * its own staleness for those.
 */
export class WriteWatch implements KyselyPlugin {
  readonly #listeners = new Map<string, Set<() => void>>();
  readonly #pending = new WeakMap<QueryId, string[]>();

  on(tables: readonly string[], listener: () => void): () => void {
    for (const table of tables) {
      let set = this.#listeners.get(table);
      if (set === undefined) this.#listeners.set(table, (set = new Set()));
      set.add(listener);
    }
    return () => {
      for (const table of tables) this.#listeners.get(table)?.delete(listener);
    };
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.#listeners.size > 0) {
      const tables = changedTables(args.node).filter((table) => this.#listeners.has(table));
      if (tables.length > 0) this.#pending.set(args.queryId, tables);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const tables = this.#pending.get(args.queryId);
    if (tables !== undefined) {
      this.#pending.delete(args.queryId);
      const called = new Set<() => void>();
      for (const table of tables) {
        for (const listener of this.#listeners.get(table) ?? []) {
          if (!called.has(listener)) listener();
          called.add(listener);
        }
      }
    }
    return args.result;
  }
}

function changedTables(node: RootOperationNode): string[] {
  if (UpdateQueryNode.is(node)) return node.table === undefined ? [] : tableNames(node.table);
  if (DeleteQueryNode.is(node)) return node.from.froms.flatMap(tableNames);
  return [];
}

function tableNames(node: OperationNode): string[] {
  if (TableNode.is(node)) return [node.table.identifier.name];
  if (AliasNode.is(node)) return tableNames(node.node);
  return [];
}
