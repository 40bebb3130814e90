import { existsSync } from "node:fs";
import { defineConfig } from "vitest/config";

// The site's own tests (test/), and the repository's checks of its README and
// CI (.ci/tests/). The kit's tests run in its package (packages/littlepress).
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", ".ci/tests/**/*.test.ts"],
    // The repository's checks install the package as authors get it: packed once, before any test runs.
    globalSetup: existsSync(".ci/tests/packed.ts") ? [".ci/tests/packed.ts"] : [],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
