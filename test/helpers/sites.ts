import path from "node:path";

/** Fixture content folders: test/fixtures/<name>/<slug>/publication.json ... */
export const FIXTURES = "test/fixtures";

/** Where the global setup builds a site: "examples" is content/, any other name a fixture. */
export const builtSite = (name: string) => path.join(".test-work", "sites", name);
