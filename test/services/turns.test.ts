/** Turns (docs/decisions/0058-history-reads-take-turns.md): at most `size` tasks at once, the others in order. */
import { describe, expect, it } from 'vitest';
import { Turns } from '../../src/services/turns.js';

/** A task that runs until `release` is called, noting when it starts. */
function gated(started: number[], id: number): { task: () => Promise<number>; release: () => void } {
  let release = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    task: async () => {
      started.push(id);
      await done;
      return id;
    },
    release: () => release(),
  };
}

/** Two turns of the event loop: a freed turn is passed on in the next one. */
const settle = async () => {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('Turns', () => {
  it('runs at most its size at once, starting the others in the order they came as turns free', async () => {
    const turns = new Turns(2);
    const started: number[] = [];
    const tasks = [0, 1, 2, 3, 4].map((id) => gated(started, id));
    const results = tasks.map(({ task }) => turns.run(task));
    await settle();
    expect(started).toEqual([0, 1]);
    tasks[1]!.release();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    tasks[0]!.release();
    tasks[2]!.release();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    tasks[3]!.release();
    tasks[4]!.release();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4]);
  });

  it('starts the next task in a later turn of the event loop, after what was already waiting for one', async () => {
    const turns = new Turns(1);
    const order: string[] = [];
    const first = gated([], 0);
    const answered = turns.run(first.task).then(() => order.push('first answered'));
    const second = turns.run(async () => order.push('second started'));
    await settle();
    // Another request's step, already queued when the first task ends, runs before the second task starts.
    setImmediate(() => order.push('another request'));
    first.release();
    await Promise.all([answered, second]);
    expect(order).toEqual(['first answered', 'another request', 'second started']);
  });

  it('gives a turn back when its task fails', async () => {
    const turns = new Turns(1);
    await expect(turns.run(async () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(await turns.run(async () => 'next')).toBe('next');
  });
});
