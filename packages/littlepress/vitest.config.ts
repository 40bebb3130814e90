import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig, type Plugin } from "vitest/config";
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

export default defineConfig({
  plugins: [deskModel],
  test: {
    include: ["test/**/*.test.ts"],
    // A temporary folder of the run's own, removed after it; then the example content and the fixtures,
    // built once, before any test runs.
    globalSetup: ["test/helpers/run-temporary-folder.ts", "test/helpers/build-sites.ts"],
    // A failed test says whether its worker was stalled meanwhile (a paused or starved machine).
    setupFiles: ["test/helpers/stall-watch.ts"],
    // Most tests wait on a child process, a socket or Chromium: with one worker more than the cores
    // (Vitest's default is one fewer), the cores stay busy while a test waits (on two cores, 177 s
    // against 204 s with two workers, for the same CPU time).
    maxWorkers: availableParallelism() + 1,
    // A worker runs file after file in one module graph: a file does not import Eleventy, the kit and
    // their packages again (a fifth of the suite's CPU time). The tests restore what they change (the
    // environment, the clock, spies, the working folder); `vitest --sequence.shuffle` shows one that does not.
    isolate: false,
    unstubEnvs: true,
    // A first run knows no durations: the files that run longest start first all the same.
    sequence: { sequencer: SlowFirst },
    // A test's bound says it hung, not that it was slow (the benchmarks judge speed). On two cores beside
    // npm start and a CPU-bound process, tests on this default took up to 21 s: 30 s left too little.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
