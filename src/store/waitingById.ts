/**
 * Values waiting for an answer, under increasing integer ids (1, 2, 3...), kept in slots `id` modulo
 * a power of two, the slots doubled when the oldest waiting id would share a slot with a new one.
 *
 * Not a Map: a process-long Map that takes and drops an entry per request rebuilds its hash table
 * every few dozen of them, and what it held ends up in the old generation, 135 bytes a request in
 * waitingById.test.ts, which brings the next major collection, and the stall of every request in
 * flight, nearer. Slots overwritten in place keep nothing.
 */
export class WaitingById<T> {
  #slots: ({ id: number; value: T } | undefined)[] = new Array<undefined>(64).fill(undefined);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  add(id: number, value: T): void {
    while (this.#slots[id & (this.#slots.length - 1)] !== undefined) this.#grow();
    this.#slots[id & (this.#slots.length - 1)] = { id, value };
    this.#size += 1;
  }

  /** The value waiting under `id`, no longer waiting; undefined when none is. */
  take(id: number): T | undefined {
    const index = id & (this.#slots.length - 1);
    const slot = this.#slots[index];
    if (slot?.id !== id) return undefined;
    this.#slots[index] = undefined;
    this.#size -= 1;
    return slot.value;
  }

  /** Every value waiting, none of them waiting any more. */
  takeAll(): T[] {
    const values = this.#slots.flatMap((slot) => (slot === undefined ? [] : [slot.value]));
    this.#slots.fill(undefined);
    this.#size = 0;
    return values;
  }

  #grow(): void {
    const slots = new Array<{ id: number; value: T } | undefined>(this.#slots.length * 2).fill(undefined);
    for (const slot of this.#slots) if (slot !== undefined) slots[slot.id & (slots.length - 1)] = slot;
    this.#slots = slots;
  }
}
