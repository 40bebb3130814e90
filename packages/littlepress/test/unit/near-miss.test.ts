// The names an author probably meant (lib/model/near-miss.ts): the slips of
// issue 37 are found, and names of an author's own are not taken for slips.
import { describe, expect, it } from "vitest";
import { editDistance, nearNames } from "../../lib/model/near-miss.ts";

describe("editDistance", () => {
  it.each([
    ["length", "length", 0],
    ["lenght", "length", 1], // two neighbours swapped
    ["titel", "title", 1],
    ["dat", "date", 1],
    ["colour", "color", 1],
    ["kitten", "sitting", 3],
    ["", "abc", 3],
  ])("%s → %s is %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe("nearNames", () => {
  const FRONT = ["title", "lang", "push", "number", "date", "hour"];
  it.each([
    ["titel", ["title"]],
    ["nubmer", ["number"]],
    ["dat", ["date"]],
    ["psuh", ["push"]],
    ["Title", ["title"]],
    ["tilte", ["title"]],
  ])("takes %s for %j", (name, near) => {
    expect(nearNames(name, FRONT)).toEqual(near);
  });

  it.each(["title", "tags", "author", "mood", "summary", "day", "layout", "price"])("takes %s for no slip", (name) => {
    expect(nearNames(name, FRONT)).toEqual([]);
  });

  it("lists the nearest first, and several when they are as near", () => {
    expect(nearNames("lenght", ["length", "lang", "height"])).toEqual(["length", "height"]);
    expect(nearNames("hout", ["hour", "host"])).toEqual(["host", "hour"]);
  });
});
