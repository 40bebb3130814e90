// Data computed per edition: a function in a data file is called for each
// edition and variant with its front matter and `config`. The Sun and Moon
// example (test/fixtures/examples) works out each day's sky for the
// subscriber's city with suncalc; a function that throws fails the build
// naming the edition and the function.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getEdition, siteContext, useSite } from "../helpers/handlers.ts";
import { buildSite } from "../helpers/build-sites.ts";
import { EXAMPLES } from "../helpers/sites.ts";

/** The printed text of Sun and Moon's edition for a city and a morning. */
async function sky(city: string, morning: string): Promise<string> {
  const time = encodeURIComponent(`${morning}T06:00:00+00:00`);
  const res = await getEdition(`/sun-and-moon/edition/?local_delivery_time=${time}&city=${city}`);
  expect(res.status).toBe(200);
  return (await res.text()).replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
}

describe("the Sun and Moon example", () => {
  beforeAll(() => useSite("examples"));

  it("gives each city its own sunrise, sunset and daylight, on its own clock", async () => {
    // suncalc's times, within a minute or two of an almanac's
    // (London about 07:41-15:55 that day; Sydney on summer time).
    expect(await sky("london", "2026-11-30")).toContain(
      "London Sunrise 07:42, sunset 15:55: 8 h 13 min of daylight, the sun highest at 11:49.",
    );
    expect(await sky("sydney", "2026-11-30")).toContain("Sydney Sunrise 05:37, sunset 19:50: 14 h 13 min");
    expect(await sky("new-york", "2026-12-06")).toContain("New York Sunrise 07:05, sunset 16:28");
  });

  it("says so when the sun does not rise (Tromsø in December)", async () => {
    const text = await sky("tromso", "2026-12-02");
    expect(text).toContain("The sun does not rise today: polar night.");
    expect(text).not.toContain("Sunrise");
  });

  it("follows the moon through its phases", async () => {
    expect(await sky("london", "2026-11-30")).toContain("The moon: last quarter, 58% lit.");
    expect(await sky("london", "2026-12-06")).toContain("The moon: waning crescent, 6% lit.");
  });
});

// content/sun-and-moon's rule has no from or until (the fixture pins them): its
// window is the build date and the 60 days after it. Built here on a date of
// the test's choosing, so it does not move with the calendar.
describe("Sun and Moon as content/ has it: a daily rule rolling on from the build date", () => {
  const root = ".test-work/sun-and-moon-rolling";
  beforeAll(async () => {
    rmSync(root, { recursive: true, force: true });
    const pub = path.join(root, "content", "sun-and-moon");
    cpSync(path.join(EXAMPLES, "sun-and-moon"), pub, { recursive: true });
    const file = path.join(pub, "publication.json");
    const publication = JSON.parse(readFileSync(file, "utf8")) as { editions: Record<string, unknown> };
    publication.editions = { by: "local_date", every: "day" };
    writeFileSync(file, JSON.stringify(publication));
    await buildSite(path.join(root, "content"), path.join(root, "_site"), { today: "2027-06-01" });
    siteContext.littlepress = { site: path.resolve(root, "_site") };
  }, 120_000);

  it("has an edition for the build date and each of the 60 days after it, and 204 outside them", async () => {
    expect(await sky("london", "2027-06-01")).toContain("Tuesday 1 June London Sunrise 04:49");
    expect(await sky("london", "2027-07-31")).toContain("Saturday 31 July London");
    for (const morning of ["2027-05-31", "2027-08-01"]) {
      const time = encodeURIComponent(`${morning}T06:00:00+00:00`);
      expect((await getEdition(`/sun-and-moon/edition/?local_delivery_time=${time}`)).status).toBe(204);
    }
  });

  it("says so when the sun does not set (Tromsø at midsummer)", async () => {
    const text = await sky("tromso", "2027-06-21");
    expect(text).toContain("Monday 21 June Tromsø The sun does not set today: midnight sun.");
    expect(text).not.toContain("Sunrise");
  });
});

describe("a function that fails for an edition", () => {
  const root = ".test-work/computed-data";
  beforeAll(() => {
    rmSync(root, { recursive: true, force: true });
    const pub = path.join(root, "content", "tides");
    mkdirSync(path.join(pub, "editions"), { recursive: true });
    writeFileSync(
      path.join(pub, "publication.json"),
      JSON.stringify({
        name: "Tides",
        description: "d",
        owner_email: "t@example.com",
        delivered_on: "Daily",
        editions: { by: "delivery_count" },
      }),
    );
    writeFileSync(
      path.join(pub, "tides.11tydata.js"),
      "export default { tide: ({ number }) => {\n" +
        '  if (number === 1) throw new Error("no table for edition 1");\n' +
        '  return "high at 6";\n' +
        "} };\n",
    );
    writeFileSync(path.join(pub, "editions", "0.md"), "---\nnumber: 0\n---\nTide: {{ tide }}\n");
    writeFileSync(path.join(pub, "editions", "1.md"), "---\nnumber: 1\n---\nTide: {{ tide }}\n");
  });

  it("fails the build naming the edition, the function and its error, without a stack trace", async () => {
    const failure = await buildSite(path.join(root, "content"), path.join(root, "_site")).then(
      () => "",
      (error: { stderr: string }) => error.stderr,
    );
    expect(failure).toContain(`${root}/content/tides/editions/1.md: {{ tide }}`);
    expect(failure).toContain(
      "problem: the data file's function `tide` failed for this edition: no table for edition 1",
    );
    expect(failure).toContain("fix: correct `tide` in the data file that exports it");
    expect(failure).not.toContain("editions/0.md");
    expect(failure).not.toMatch(/\n\s+at .+:\d+:\d+/);
  }, 120_000);
});
