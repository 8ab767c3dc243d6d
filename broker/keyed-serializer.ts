// Runs tasks one after another per key (a project id) and concurrently across keys, so two
// lifecycle calls for one project in this process never interleave.
export class KeyedSerializer {
  #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    // Forget the key once nothing is queued behind this task.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
