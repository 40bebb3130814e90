import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// The site's own tests (test/), and the repository's checks of its README and
// CI (.ci/tests/). The kit's tests run in its package (packages/littlepress).

// In this repository, a failed test says whether the machine stalled meanwhile (see the file): the kit's.
const STALL_WATCH = "packages/littlepress/test/helpers/stall-watch.ts";
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", ".ci/tests/**/*.test.ts"],
    // The repository's checks install the package as authors get it: packed once, before any test runs.
    globalSetup: existsSync(".ci/tests/packed.ts") ? [".ci/tests/packed.ts"] : [],
    setupFiles: existsSync(STALL_WATCH) ? [STALL_WATCH] : [],
    // The checks mostly wait on npm, the registry, netlify-cli and servers: one worker more than the cores
    // runs the three long ones (the starter, the blog, Netlify) at once (86 s against 110 s with two, on two cores).
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
