// What the desk's pages say about each publication (lib/build/desk.ts), and the
// simulator's time-zone arithmetic (lib/model/desk-rules.ts, which the build
// bundles as /_desk/model.js for the desk's browser JS).
import { describe, expect, it } from "vitest";
import { deskPublication, keyText } from "../../lib/build/desk.ts";
import { loadSite } from "../../lib/build/site.ts";
import * as deskRules from "../../lib/model/desk-rules.ts";

describe("the desk's publication data", () => {
  const site = loadSite("test/fixtures/basic");
  const desk = (slug: string) => {
    const pub = site.publications.find((p) => p.slug === slug);
    if (!pub) throw new Error(`no fixture ${slug}`);
    return deskPublication(pub, undefined);
  };

  it("names the first and last editions for people, and counts the gaps between them", () => {
    expect(desk("serial").schedule).toMatchObject({
      by: "delivery_count",
      count: 4,
      firstText: "no. 0",
      lastText: "no. 4",
      gaps: 1,
      ends: true,
      firstDate: "",
      countText: "4 editions; 1 number between them without one answer 204",
    });
    expect(desk("daily").schedule).toMatchObject({
      firstText: "Sat 10 Jan 2026",
      lastText: "Tue 13 Jan 2026",
      gaps: 1,
      firstDate: "2026-01-10",
      lastDate: "2026-01-13",
    });
    expect(desk("hourly").schedule).toMatchObject({
      firstText: "Sat 10 Jan 2026, 07:00 UTC",
      lastText: "Sat 10 Jan 2026, 08:00 UTC",
      gaps: 0,
      countText: "2 editions",
      firstDate: "2026-01-10",
    });
    expect(desk("open-serial").schedule.afterLast).toBe("then 204: nothing prints until new editions are added");
    expect(desk("serial").schedule.afterLast).toBe("then 410: the series ends and so does the subscription");
  });

  it("lists the push editions for people, none when there are none", () => {
    expect(desk("serial").push).toEqual([]);
    const pub = site.publications.find((p) => p.slug === "daily")!;
    const list = pub.editions.list.map((e, i) => (i === 1 ? { ...e, push: true as const } : e));
    const marked = deskPublication({ ...pub, editions: { ...pub.editions, list } }, undefined);
    expect(marked.push).toEqual([keyText("local_date", list[1]!.key)]);
  });

  it("carries only the platform's tags in the description, and the fields as meta.json shows them", () => {
    expect(desk("serial").descriptionHtml).toBe("A <em>finite</em> serial");
    const fields = desk("settings").fields;
    expect(fields.map((f) => f.type)).toEqual(["select", "radio", "text", "text"]);
    expect(Object.keys(fields[2]!)).toEqual(["type", "name", "label"]);
    // each choice's default (the first option without one), which meta.json cannot carry
    expect(desk("settings").defaults).toEqual({ lang: "en", size: "s" });
  });

  it("writes keys for people", () => {
    expect(keyText("local_date", "2026-11-22")).toBe("Sun 22 Nov 2026");
    expect(keyText("utc_date", "2024-02-29")).toBe("Thu 29 Feb 2024");
    expect(keyText("delivery_count", "12")).toBe("no. 12");
    expect(keyText("local_date", "")).toBe("none");
  });
});

describe("the simulator's delivery times", () => {
  // What the build bundles as /_desk/model.js for the simulator.
  const tz = deskRules;

  it.each([
    ["2026-11-20", 6, "Europe/Paris", "2026-11-20T06:00:00+01:00"],
    ["2026-07-01", 6, "Europe/Paris", "2026-07-01T06:00:00+02:00"],
    ["2026-07-01", 6, "America/Los_Angeles", "2026-07-01T06:00:00-07:00"],
    ["2026-11-20", 6, "Asia/Kathmandu", "2026-11-20T06:00:00+05:45"],
    ["2026-11-20", 23, "Pacific/Kiritimati", "2026-11-20T23:00:00+14:00"],
    ["2026-11-20", 0, "UTC", "2026-11-20T00:00:00+00:00"],
    // the hour the clocks skip reads as the hour after; the hour that happens twice, the first time
    ["2026-03-29", 2, "Europe/Paris", "2026-03-29T03:00:00+02:00"],
    ["2026-03-08", 2, "America/New_York", "2026-03-08T03:00:00-04:00"],
    ["2026-10-25", 2, "Europe/Paris", "2026-10-25T02:00:00+02:00"],
    ["2026-11-01", 1, "America/New_York", "2026-11-01T01:00:00-04:00"],
  ])("%s at %i:00 in %s is %s", (date, hour, zone, text) => {
    const time = tz.localDeliveryTime(date, hour, zone);
    expect(time.text).toBe(text);
    expect(new Date(time.text).getTime()).toBe(time.ms);
  });

  it("counts calendar days and checks its inputs", () => {
    expect(tz.addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(tz.addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(tz.isIsoDate("2026-02-29")).toBe(false);
    expect(tz.isIsoDate("2026-11-20")).toBe(true);
    expect(tz.isTimeZone("Europe/Paris")).toBe(true);
    expect(tz.isTimeZone("Mars/Olympus")).toBe(false);
    expect(tz.dateText("2026-11-20")).toBe("Fri 20 Nov 2026");
  });
});
