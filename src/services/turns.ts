/**
 * At most `size` tasks at once, the others waiting their turn in order: what a node spends on one kind of costly
 * read stays a share of its event loop however many clients ask (docs/decisions/0058-history-reads-take-turns.md).
 */
export class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      // The turn passes to the next waiter, or is given back. Passed in a later turn of the event loop: what the
      // finished task's caller does with its result, and any other request, run before the next task starts.
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else setImmediate(next);
    }
  }
}
