// Keeps the preview-dots bench from rotting, and holds its one target, which is
// not a speed: the preview and the stand-in for sirius print the same dots for
// every edition of the bench's publication. The figures themselves (render
// times in PhantomJS and Chromium) are `npm run bench:preview-dots`'s.
import { expect, it } from "vitest";
import { benchPreviewDots, dotsTable, EDITIONS } from "../../scripts/bench/preview-dots-bench.ts";

// Bounded, not timed: 78 s in CI, and past 180 s in a loaded run (npm start and a CPU-bound process beside npm test).
it("previews and prints every edition, with no differing dot, and prints its table", { timeout: 600_000 }, async () => {
  const rows = await benchPreviewDots();
  expect(rows.map((r) => r.key)).toEqual(Object.keys(EDITIONS));
  for (const row of rows) {
    expect(row.differing).toBe(0);
    expect(row.previewPx).toBe(row.standInPx);
    expect(row.phantomMs).toBeGreaterThan(0);
    expect(row.chromiumMs).toBeGreaterThan(0);
  }
  const table = dotsTable(rows);
  expect(table).toContain("| edition | preview px | stand-in px | differing dots (target 0) |");
  expect(table.split("\n").filter((l) => /^\| \d \| \d+ \| \d+ \| 0 ok \|/.test(l))).toHaveLength(rows.length);
});
