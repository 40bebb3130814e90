// The order a first run starts the test files in (test/helpers/slow-first.ts).
import { existsSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { SLOW_FOLDERS, slowness } from "../helpers/slow-first.ts";

it("names folders that hold tests", () => {
  for (const folder of SLOW_FOLDERS) expect(existsSync(path.join("test", folder)), folder).toBe(true);
});

it("ranks the benchmarks' smoke tests first and the unit tests last", () => {
  const files = ["test/unit/etag.test.ts", "test/integration/live.test.ts", "test/bench/bench.smoke.test.ts"];
  expect([...files].sort((a, b) => slowness(a) - slowness(b))).toEqual([
    "test/bench/bench.smoke.test.ts",
    "test/integration/live.test.ts",
    "test/unit/etag.test.ts",
  ]);
  expect(slowness("test/fuzz/functions.property.test.ts")).toBeLessThan(slowness("test/verify/verify.test.ts"));
});
