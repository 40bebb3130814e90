// Names an author probably meant: a misspelt setting (`lenght`) or front-matter
// key (`titel`, `nubmer`, `psuh`) is a name a letter or two away from one that
// exists. "Away" is the optimal string alignment distance: an insertion, a
// deletion, a substitution or a swap of two neighbours costs one each.

/** The edits between `a` and `b` (swaps of neighbours count as one). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** How far off a name may be and still be taken for a slip: one edit in a short name, two from five letters. */
const slack = (name: string) => (name.length >= 5 ? 2 : 1);

/**
 * The names of `known` that `name` is a slip away from, nearest first (none when
 * `name` is itself known, or no name is near). Case is ignored.
 */
export function nearNames(name: string, known: Iterable<string>): string[] {
  const lower = name.toLowerCase();
  const names = [...known];
  if (names.includes(name)) return [];
  return names
    .map((k) => ({ k, d: editDistance(lower, k.toLowerCase()) }))
    .filter(({ k, d }) => d <= Math.min(slack(name), slack(k)))
    .sort((x, y) => x.d - y.d || x.k.localeCompare(y.k))
    .map(({ k }) => k);
}
