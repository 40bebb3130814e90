// Editions from data files and recurring rules, built by the real build from
// test/fixtures/data and answered by the real /edition/ handler.
import { beforeAll, describe, expect, it } from "vitest";
import { getEdition, useSite } from "../helpers/handlers.ts";

beforeAll(() => useSite("data"));

async function html(pathAndQuery: string): Promise<string> {
  const res = await getEdition(pathAndQuery);
  expect(res.status, pathAndQuery).toBe(200);
  expect(res.headers.get("etag")).toMatch(/^"[^"]+"$/);
  return res.text();
}

async function status(pathAndQuery: string): Promise<number> {
  const res = await getEdition(pathAndQuery);
  await res.arrayBuffer();
  return res.status;
}

const at = (slug: string, time: string) => `/${slug}/edition/?local_delivery_time=${encodeURIComponent(time)}`;

describe("rows of a CSV file", () => {
  it("renders the template once per row, every column in scope (quoted commas and quotes, BOM, CRLF)", async () => {
    const first = await html(at("words", "2026-11-20T07:00:00+00:00"));
    expect(first).toContain("<h1>Petrichor, again</h1>");
    expect(first).toContain("The smell of rain on dry earth, &quot;after&quot; a drought");
    // The BOM did not end up in the first column's name: `date` is the key, and in scope.
    expect(first).toContain("Friday 20 November, day 324, week 47.");
    expect(first).toContain("35 days to Christmas.");
    const second = await html(at("words", "2026-11-21T07:00:00+00:00"));
    expect(second).toContain("Two lines:\nthe second");
    expect(second).not.toContain("\r");
    expect(await html(at("words", "2026-11-23T07:00:00+00:00"))).toContain("<h1>Hiraeth</h1>");
  });

  it("mixes rows with Markdown editions", async () => {
    const sunday = await html(at("words", "2026-11-22T07:00:00+00:00"));
    expect(sunday).toContain("A Markdown edition among the rows");
    expect(sunday).not.toContain("days to Christmas");
  });

  it("answers 204 for a date no row has, inside and past the rows", async () => {
    expect(await status(at("words", "2026-11-19T07:00:00+00:00"))).toBe(204);
    expect(await status(at("words", "2026-11-24T07:00:00+00:00"))).toBe(204);
  });
});

describe("rows of JSON and YAML files", () => {
  it("numbers editions from a JSON list; row fields win over the template's front matter", async () => {
    const one = await html("/serial-json/edition/?delivery_count=0");
    expect(one).toContain("<h1>Part one</h1>");
    expect(one).toContain("Part 1.");
    expect(await html("/serial-json/edition/?delivery_count=2")).toContain("It ends.");
    expect(await status("/serial-json/edition/?delivery_count=3")).toBe(410);
  });

  it("keys UTC-dated rows from a YAML list, with each row's lang", async () => {
    // 23:30 at -02:00 is already May 2nd in UTC.
    const may2 = await html(at("sayings-yaml", "2026-05-01T23:30:00-02:00"));
    expect(may2).toContain("Red sky at night, shepherd's delight.");
    expect(may2).toContain('lang="en-GB"');
    expect(await html(at("sayings-yaml", "2026-05-01T09:00:00+02:00"))).toContain("Ne'er cast a clout");
  });
});

describe("recurring editions", () => {
  it("renders the template on the rule's days, 204 on the others; a Markdown edition replaces the rule's", async () => {
    expect(await html(at("twice-weekly", "2026-03-02T07:00:00+01:00"))).toContain("<h1>Monday</h1>");
    expect(await html(at("twice-weekly", "2026-03-05T07:00:00+01:00"))).toContain("<h1>Thursday</h1>");
    for (const day of ["03", "04", "06", "07", "08"])
      expect(await status(at("twice-weekly", `2026-03-${day}T07:00:00+01:00`))).toBe(204);
    expect(await html(at("twice-weekly", "2026-03-30T07:00:00+02:00"))).toContain("A special Monday");
    // Past "until" with "ends": the series is over.
    expect(await status(at("twice-weekly", "2026-12-03T07:00:00+01:00"))).toBe(410);
  });

  it("keeps to the local date across daylight-saving changes (Europe, March and October)", async () => {
    // Sunday 29 March 2026 02:00 in Europe: the clocks go forward; the Monday after is still a Monday.
    expect(await status(at("twice-weekly", "2026-03-29T23:30:00+02:00"))).toBe(204);
    expect(await html(at("twice-weekly", "2026-03-30T00:30:00+02:00"))).toContain("A special Monday");
    // Sunday 25 October: back to +01:00. Thursday 29th at 00:10 local is still Wednesday in UTC.
    expect(await html(at("twice-weekly", "2026-10-29T00:10:00+01:00"))).toContain("<h1>Thursday</h1>");
    expect(await status(at("twice-weekly", "2026-10-28T23:50:00+01:00"))).toBe(204);
  });

  it("takes the printer's own date at the offsets -12:00 and +14:00", async () => {
    // One instant, 2026-03-05T11:00Z: Wednesday 4th at -12:00 (no edition), Friday 6th at +14:00 (none).
    expect(await status(at("twice-weekly", "2026-03-04T23:00:00-12:00"))).toBe(204);
    expect(await status(at("twice-weekly", "2026-03-06T01:00:00+14:00"))).toBe(204);
    // And Thursday 5th at both ends of the world's offsets.
    expect(await html(at("twice-weekly", "2026-03-05T00:00:00+14:00"))).toContain("<h1>Thursday</h1>");
    expect(await html(at("twice-weekly", "2026-03-05T23:59:00-12:00"))).toContain("<h1>Thursday</h1>");
  });

  it("names days and months in the edition's lang, Monday to Friday only", async () => {
    const monday = await html(at("weekdays-fr", "2026-10-26T07:00:00+01:00"));
    expect(monday).toContain("<h1>lundi 26 octobre</h1>");
    expect(monday).toContain("Semaine 44.");
    expect(monday).toContain('lang="fr"');
    expect(await status(at("weekdays-fr", "2026-10-24T07:00:00+02:00"))).toBe(204);
    expect(await status(at("weekdays-fr", "2026-10-25T07:00:00+01:00"))).toBe(204);
    expect(await html(at("weekdays-fr", "2026-10-23T07:00:00+02:00"))).toContain("vendredi 23 octobre");
  });

  it("has leap days where the calendar has them, and none in 2027", async () => {
    expect(await html(at("leap", "2027-02-28T07:00:00+00:00"))).toContain("Day 59 of 2027, February 28.");
    expect(await html(at("leap", "2027-03-01T07:00:00+00:00"))).toContain("Day 60 of 2027, March 1.");
    expect(await html(at("leap", "2028-02-29T07:00:00-12:00"))).toContain("Day 60 of 2028, February 29.");
    expect(await html(at("leap", "2028-03-01T07:00:00+14:00"))).toContain("Day 61 of 2028, March 1.");
    // 2027-02-29 does not exist: the request itself is refused (204), never mapped to March 1st.
    expect(await status(at("leap", "2027-02-29T07:00:00+00:00"))).toBe(204);
  });

  it("makes an edition per UTC hour, whatever the printer's offset and daylight saving", async () => {
    // 01:30 at +01:00 and 03:30 at +02:00 (after the change in Europe) are 00:30 and 01:30 UTC.
    expect(await html(at("hourly", "2026-03-29T01:30:00+01:00"))).toContain("Hour 0 of 2026-03-29.");
    expect(await html(at("hourly", "2026-03-29T03:30:00+02:00"))).toContain("Hour 1 of 2026-03-29.");
    expect(await html(at("hourly", "2026-03-30T11:00:00-12:00"))).toContain("Hour 23 of 2026-03-30.");
    expect(await html(at("hourly", "2026-03-29T14:00:00+14:00"))).toContain("Hour 0 of 2026-03-29.");
    // The hour after the rule's last: none yet (an open series).
    expect(await status(at("hourly", "2026-03-30T12:00:00-12:00"))).toBe(204);
  });
});
