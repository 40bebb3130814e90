import path from "node:path";

/** Fixture content folders: test/fixtures/<name>/<slug>/publication.json ... */
export const FIXTURES = "test/fixtures";

/**
 * The kit's four example publications as they shipped in content/. The tests
 * use this copy, so an author may replace or delete content/ without breaking them.
 * One difference: sun-and-moon's daily rule has a fixed `from` and `until`
 * (2026-11-30 to 2026-12-06) where content/'s rolls forward from each build,
 * so the tests' dates and figures stay the same next month and next year.
 */
export const EXAMPLES = `${FIXTURES}/examples`;

/**
 * Where the global setup builds the fixture test/fixtures/<name>. Each test
 * run builds into its own folder, so two runs at once (a developer and a
 * helper, say) never pull a site from under each other.
 */
export const builtSite = (name: string) =>
  path.join(process.env.LITTLEPRESS_TEST_SITES ?? path.join(".test-work", "sites"), name);
