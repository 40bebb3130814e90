// Keeps the print-once bench from rotting, and holds its one target, which is
// not a speed: against a stand-in that renders before it answers, no page is
// printed twice, with the kit's bound on a send or a short one. The figures
// themselves (throughput, peak in flight) are `npm run bench:print-once`'s.
import { expect, it } from "vitest";
import { benchPrintOnce, printOnceTable } from "../../scripts/bench/print-once-bench.ts";

it("accounts for every delivery, prints none twice, and reports every figure", { timeout: 120_000 }, async () => {
  const rows = await benchPrintOnce([16], 0.02);
  expect(rows.map((r) => r.bound)).toEqual(["the run's time left", "5 s x scale (the bound before)"]);
  for (const row of rows) {
    expect(row.duplicates).toBe(0);
    // Every delivery printed, had nothing to print, or was sent and left unknown: none lost, none twice.
    expect(row.printed + row.nothing + row.unknown).toBe(16);
    expect(row.peak).toBeGreaterThan(0);
  }
  const table = printOnceTable(rows, 0.02);
  expect(table).toContain("| due | send bound | printed | nothing to print | unknown | duplicates (target 0) |");
  expect(table.split("\n").filter((l) => /^\| 16 \|/.test(l))).toHaveLength(2);
});
