import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds the example content and the fixtures once, before any test runs.
    globalSetup: ["test/helpers/build-sites.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
