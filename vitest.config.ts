import { defineConfig } from "vitest/config";

// The site's own tests (test/); the kit's run in its package (packages/littlepress).
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
