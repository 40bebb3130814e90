// How long a test lets a page render when what it judges is not the time limit
// itself (what a page loads, prints or holds). A page that renders in 1-2 s
// alone took more than 30 s in a loaded CI run (npm test's two suites side by
// side on two cores), and a PhantomJS page that fills 200 MiB more than 20 s:
// each failed as late, not for what its test is about. A long limit costs
// nothing when the page loads; it only bounds a render that never ends.

/** A page's time, for a render whose time is not under test. */
export const PAGE_MS = 90_000;
/** A test's bound around one such render, with room for a browser's start and the test's own work. */
export const RENDER_TEST_MS = 2 * PAGE_MS;
