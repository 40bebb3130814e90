import path from "node:path";

/** Fixture content folders: test/fixtures/<name>/<slug>/publication.json ... */
export const FIXTURES = "test/fixtures";

/**
 * Where the global setup builds a site: "examples" is content/, any other
 * name a fixture. Each test run builds into its own folder, so two runs at
 * once (a developer and a helper, say) never pull a site from under each other.
 */
export const builtSite = (name: string) => path.join(process.env.LITTLEPRESS_TEST_SITES ?? path.join(".test-work", "sites"), name);
