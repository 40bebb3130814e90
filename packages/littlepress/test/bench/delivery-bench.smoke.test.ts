// Keeps the delivery bench from rotting: its fan-out at two tiny sizes, each
// in its own processes (the functions' and the world's), must deliver to
// everyone and report every figure and every target. Speed itself is judged
// by `npm run bench:deliveries`, never by a timed test.
import { expect, it } from "vitest";
import { benchDeliveries } from "../../scripts/bench/delivery-bench.ts";

it("plays the fan-out at two sizes and reports every figure and target", { timeout: 180_000 }, async () => {
  const report = await benchDeliveries({
    subscribers: [30, 60],
    latencyMs: 1,
    printLatencyMs: 1,
    fanout: true,
    functions: 50,
  });
  expect(report).toMatch(/\| printed \| 30 \| 60 \| {2}\|/);
  // five a delivery, and the batch's own read and delete over its few deliveries
  expect(report).toMatch(/\| store calls a delivery \| 5\.\d\d \| 5\.\d\d \| {2}\|/);
  for (const figure of ["throughput run/plain", "functions' process RSS", "functions' heap kept after a batch"])
    expect(report).toContain(`| ${figure}`);
  const targets = report.split("\n").filter((l) => /^- (PASS|\*\*FAIL\*\*): /.test(l));
  // per size: the time limits and the throughput; and memory across the sizes
  expect(targets).toHaveLength(5);
  expect(targets.join("\n")).toContain("printed 30 of 30");
  expect(targets.join("\n")).toContain("printed 60 of 60");
});
