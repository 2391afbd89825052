/**
 * The live JavaScript heap of a service process, read through its inspector (the process is started
 * with NODE_OPTIONS=--inspect=127.0.0.1:0): a full garbage collection first, so that what is left
 * is what the process holds on to. Resident memory alone cannot tell a leak from a heap that V8
 * simply has not collected yet.
 */
export interface Inspector {
  /** Bytes of JavaScript heap in use after a full collection. */
  heapAfterGc(): Promise<number>;
  close(): void;
}

export const INSPECT_OPTIONS = '--inspect=127.0.0.1:0';

export async function connectInspector(output: readonly string[], timeoutMs = 10_000): Promise<Inspector> {
  const deadline = Date.now() + timeoutMs;
  let url: string | undefined;
  while (url === undefined) {
    for (const line of output) url ??= /ws:\/\/127\.0\.0\.1:[0-9]+\/[0-9a-f-]+/.exec(line)?.[0];
    if (url !== undefined) break;
    if (Date.now() > deadline) throw new Error('the process printed no inspector address');
    await new Promise((r) => setTimeout(r, 50));
  }
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('inspector connection failed')), { once: true });
  });
  let next = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const call = (method: string) =>
    new Promise<unknown>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method }));
    });
  return {
    async heapAfterGc() {
      await call('HeapProfiler.collectGarbage');
      await call('HeapProfiler.collectGarbage');
      return ((await call('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
    },
    close: () => socket.close(),
  };
}
