// Says, when a test fails, how late this worker's timers ran while it did.
// A test that waits on timeouts in turn times out as a whole when the
// process is stalled (a shared machine paused, starved or thrashing): each of
// its timers fires late, and the test's own bound fires first. CI once stopped
// a 4-second test at its 60 s bound, as such a stall would, and nothing told a
// stall from a hang. A timer that is seconds late tells.
import { beforeEach } from "vitest";

const TICK_MS = 250;
/** Lateness worth a word: far beyond a busy event loop's, which the suite's own work causes. */
const WORTH_SAYING_MS = 5_000;

interface Watch {
  /** The largest lateness of the tick since the current test began, in ms. */
  worst: number;
}

const KEY = Symbol.for("littlepress.stall-watch");
const shared = globalThis as { [KEY]?: Watch };

// With `isolate: false` a worker runs this file before each test file: one watch per worker.
function watch(): Watch {
  const existing = shared[KEY];
  if (existing) return existing;
  const state: Watch = { worst: 0 };
  let due = Date.now() + TICK_MS;
  setInterval(() => {
    const now = Date.now();
    state.worst = Math.max(state.worst, now - due);
    due = now + TICK_MS;
  }, TICK_MS).unref();
  shared[KEY] = state;
  return state;
}

const state = watch();

beforeEach((context) => {
  state.worst = 0;
  context.onTestFailed(() => {
    if (state.worst < WORTH_SAYING_MS) return;
    process.stderr.write(
      `stall-watch: during "${context.task.name}", this worker's timers ran up to ` +
        `${(state.worst / 1000).toFixed(1)} s late: the process or the machine was stalled, not only the test.\n`,
    );
  });
});
