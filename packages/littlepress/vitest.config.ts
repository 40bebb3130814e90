import { availableParallelism } from "node:os";
import path from "node:path";
import { configDefaults, defineConfig, type Plugin } from "vitest/config";
import { SlowFirst } from "./test/helpers/slow-first.ts";

const DESK_ASSETS = path.resolve("layouts/desk/assets");

/**
 * The desk's scripts import the model's rules as ./model.js, which the build
 * bundles from lib/model/desk-rules.ts into the site (lib/build/desk.ts). Tests
 * that run those scripts in Node get the same source.
 */
const deskModel: Plugin = {
  name: "littlepress-desk-model",
  resolveId(source, importer) {
    if (source === "./model.js" && importer && path.dirname(importer.replace(/[?#].*$/, "")) === DESK_ASSETS)
      return path.resolve("lib/model/desk-rules.ts");
    return null;
  },
};

/**
 * The benchmarks' smoke tests load the machine on purpose (wrk at full speed, builds side by side, a delivery run's
 * fan-out): beside the rest they took 8 times their time alone (bench.smoke 495 s against 64 s), and tests beside them
 * that render in Chromium ran out of their pages' time. They run last, one at a time.
 */
const BENCHMARK_SMOKES = "test/bench/*.smoke.test.ts";

/** What both groups of tests share (a project inherits none of the root's test options). */
const shared = {
  // A failed test says whether its worker was stalled meanwhile (a paused or starved machine).
  setupFiles: ["test/helpers/stall-watch.ts"],
  // A worker runs file after file in one module graph: a file does not import Eleventy, the kit and
  // their packages again (a fifth of the suite's CPU time). The tests restore what they change (the
  // environment, the clock, spies, the working folder); `vitest --sequence.shuffle` shows one that does not.
  isolate: false,
  unstubEnvs: true,
  // A test's bound says it hung, not that it was slow (the benchmarks judge speed). On two cores beside
  // npm start and a CPU-bound process, tests on this default took up to 21 s; beside three, two prints to an
  // ESC/POS printer took more than 60 s.
  testTimeout: 120_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    // A temporary folder of the run's own, removed after it; then the example content and the fixtures,
    // built once, before any test runs (the root's, once for both groups: a project's would run again).
    globalSetup: ["test/helpers/run-temporary-folder.ts", "test/helpers/build-sites.ts"],
    // A first run knows no durations: the files that run longest start first all the same.
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        plugins: [deskModel],
        test: {
          ...shared,
          name: "kit",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, BENCHMARK_SMOKES],
          // Most tests wait on a child process, a socket or Chromium: with one worker more than the cores
          // (Vitest's default is one fewer), the cores stay busy while a test waits (on two cores, 177 s
          // against 204 s with two workers, for the same CPU time).
          maxWorkers: availableParallelism() + 1,
        },
      },
      {
        plugins: [deskModel],
        test: {
          ...shared,
          name: "benchmarks",
          include: [BENCHMARK_SMOKES],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
