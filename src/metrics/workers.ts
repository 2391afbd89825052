/**
 * The background workers a process runs (the webhook dispatcher, the re-encryption and retention
 * jobs), for /readyz: a worker that this process is configured to run and that is not running
 * makes the instance not ready.
 */
export class Workers {
  readonly #workers = new Map<string, () => boolean>();

  /** `running` is asked on every readiness check; registering again replaces it. */
  register(name: string, running: () => boolean): void {
    this.#workers.set(name, running);
  }

  unregister(name: string): void {
    this.#workers.delete(name);
  }

  /** The names of registered workers that are not running. */
  notRunning(): string[] {
    return [...this.#workers].filter(([, running]) => !running()).map(([name]) => name);
  }
}
