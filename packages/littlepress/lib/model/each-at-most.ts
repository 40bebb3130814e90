// Running async work over many items a few at a time: the one pool the build
// (file writes) and the platform's side (deliveries, prunings) share.

/** Runs `work` on every item, at most `limit` at once, each item once, in order of start. */
export async function eachAtMost<T>(
  limit: number,
  items: readonly T[],
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
