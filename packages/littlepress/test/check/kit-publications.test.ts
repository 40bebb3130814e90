// The checker against real littlepress publications (test/fixtures/basic,
// built by the global setup) served by the kit's own local server: a correct
// publication must get no FAIL, and the day-to-day checks must really run.
import { describe, expect, it } from "vitest";
import type { CheckId } from "../../scripts/check/catalogue.ts";
import { type CheckOptions, runCheck } from "../../scripts/check/run-check.ts";
import { withServer } from "../helpers/server.ts";

// The fixtures' editions are all in January 2026.
const JANUARY = {
  start: "2026-01-09",
  days: 14,
  hour: 6,
  zones: ["UTC"],
  timeoutMs: 5000,
  config: {},
  strict: false,
} satisfies Omit<CheckOptions, "base">;

const CASES: { slug: string; options?: Partial<CheckOptions>; passes: CheckId[] }[] = [
  {
    slug: "serial",
    passes: [
      "edition.etag-daily",
      "edition.etag-changes",
      "edition.after-410",
      "edition.resubscribe",
      "edition.no-body",
      "edition.bad-values",
    ],
  },
  { slug: "open-serial", passes: ["edition.etag-changes", "edition.no-slash"] },
  {
    slug: "settings",
    passes: [
      "subscribe.accepts-valid",
      "subscribe.rejects-invalid",
      "subscribe.error-texts",
      "subscribe.multipart",
      "edition.bad-values",
      "edition.escapes",
    ],
  },
  { slug: "shiftjis", passes: ["subscribe.accepts-valid", "edition.charset"] },
  {
    slug: "daily",
    options: { zones: ["Europe/London", "America/Los_Angeles"] },
    passes: ["edition.etag-daily", "edition.etag-changes", "edition.after-410"],
  },
  { slug: "utc-daily", options: { zones: ["Asia/Tokyo", "America/Los_Angeles"] }, passes: ["edition.etag-changes"] },
  { slug: "hourly", options: { hour: 7 }, passes: ["edition.after-410", "edition.bare", "meta.icon-drawn"] },
];

async function expectPass(base: string, options: Omit<CheckOptions, "base">, passes: CheckId[]) {
  const report = await runCheck({ ...options, base });
  expect(report.checks.filter((c) => c.status === "fail" || c.status === "warn")).toEqual([]);
  for (const id of passes)
    expect(
      report.checks.find((c) => c.id === id),
      id,
    ).toMatchObject({ status: "pass" });
  expect(report.ok).toBe(true);
}

describe("real littlepress publications pass", () => {
  const server = withServer("basic");
  for (const { slug, options, passes } of CASES) {
    it(`${slug}: no FAIL, and ${passes.join(", ")} pass`, () =>
      expectPass(`${server.url}/${slug}/`, { ...JANUARY, ...options }, passes));
  }
});

// The example publications (test/fixtures/examples, the kit's content/ as shipped), as `npm start` serves them.
const EXAMPLES: { slug: string; options: Partial<CheckOptions>; passes: CheckId[] }[] = [
  {
    slug: "lighthouse",
    options: { days: 10 },
    passes: ["edition.etag-changes", "edition.after-410", "edition.resubscribe", "meta.icon"],
  },
  {
    slug: "almanac",
    options: { start: "2026-11-20", days: 24, zones: ["Europe/Paris", "America/New_York"] },
    passes: ["edition.etag-daily", "edition.etag-changes"],
  },
  {
    slug: "good-morning",
    options: { start: "2026-11-18", days: 13, zones: ["Asia/Tokyo", "America/Los_Angeles"] },
    passes: ["subscribe.accepts-valid", "subscribe.error-texts", "edition.etag-changes"],
  },
  {
    slug: "sun-and-moon",
    options: { start: "2026-11-30", days: 7, zones: ["Australia/Sydney", "America/New_York"] },
    passes: ["subscribe.accepts-valid", "subscribe.error-texts", "edition.etag-changes"],
  },
];

describe("the example publications pass", () => {
  const server = withServer("examples");
  for (const { slug, options, passes } of EXAMPLES) {
    it(`${slug}: no FAIL or WARN, and ${passes.join(", ")} pass`, () =>
      expectPass(`${server.url}/${slug}/`, { ...JANUARY, ...options }, passes));
  }
});
