import { describe, expect, it } from "vitest";
import { contentHash, editionEtag, filledEtag } from "../../lib/model/etag.ts";

const QUOTED = /^"[^"]+"$/;

describe("editionEtag", () => {
  it("is a quoted string starting with the key", () => {
    for (const key of ["0", "42", "2026-11-22", "2026-11-22T07"]) {
      const etag = editionEtag(key, "", "<p>x</p>");
      expect(etag).toMatch(QUOTED);
      expect(etag.startsWith(`"${key}-`)).toBe(true);
    }
  });

  it("uses only characters allowed in an entity-tag", () => {
    // etagc = %x21 / %x23-7E / obs-text: no spaces, no quotes inside, no control characters.
    const etag = editionEtag("2026-11-22", "lang=fr&size=l", "<p>é</p>");
    expect(etag.slice(1, -1)).toMatch(/^[\x21\x23-\x7e]+$/);
  });

  it("is the same for the same inputs", () => {
    expect(editionEtag("3", "lang=en", "<p>a</p>")).toBe(editionEtag("3", "lang=en", "<p>a</p>"));
  });

  it("differs when the key, the variant or the content differs", () => {
    const base = editionEtag("3", "lang=en", "<p>a</p>");
    expect(editionEtag("4", "lang=en", "<p>a</p>")).not.toBe(base);
    expect(editionEtag("3", "lang=fr", "<p>a</p>")).not.toBe(base);
    expect(editionEtag("3", "lang=en", "<p>b</p>")).not.toBe(base);
    expect(editionEtag("3", "lang=en", "<p>a</p> ")).not.toBe(base);
  });

  it("differs from day to day even for identical content (spec rule 5)", () => {
    expect(editionEtag("2026-11-22", "", "same")).not.toBe(editionEtag("2026-11-23", "", "same"));
    expect(editionEtag("2026-11-22", "", "same")).not.toBe(editionEtag("2027-11-22", "", "same"));
  });

  it("does not let key and variant run into each other", () => {
    expect(editionEtag("1", "2", "c")).not.toBe(editionEtag("12", "", "c"));
  });
});

describe("filledEtag", () => {
  const prebuilt = editionEtag("2026-11-22", "lang=en", "<p>Hello ⟦littlepress:name⟧</p>");

  it("keeps the key prefix, dashes included, and is quoted", () => {
    const etag = filledEtag("2026-11-22", prebuilt, [["name", "Ada"]]);
    expect(etag).toMatch(QUOTED);
    expect(etag.startsWith('"2026-11-22-')).toBe(true);
  });

  it("is stable for equal text values", () => {
    expect(filledEtag("2026-11-22", prebuilt, [["name", "Ada"]])).toBe(
      filledEtag("2026-11-22", prebuilt, new Map([["name", "Ada"]])),
    );
  });

  it("differs for different text values", () => {
    const ada = filledEtag("2026-11-22", prebuilt, [["name", "Ada"]]);
    expect(filledEtag("2026-11-22", prebuilt, [["name", "Bob"]])).not.toBe(ada);
    expect(filledEtag("2026-11-22", prebuilt, [["name", ""]])).not.toBe(ada);
    expect(filledEtag("2026-11-22", prebuilt, [["name", "Ada "]])).not.toBe(ada);
  });

  it("differs from the prebuilt ETag and for a different prebuilt copy", () => {
    const other = editionEtag("2026-11-22", "lang=fr", "<p>Bonjour ⟦littlepress:name⟧</p>");
    expect(filledEtag("2026-11-22", prebuilt, [["name", "Ada"]])).not.toBe(prebuilt);
    expect(filledEtag("2026-11-22", prebuilt, [["name", "Ada"]])).not.toBe(
      filledEtag("2026-11-22", other, [["name", "Ada"]]),
    );
  });

  it("differs when a value moves from one field to another", () => {
    const a = filledEtag("1", prebuilt, [
      ["name", "x"],
      ["city", ""],
    ]);
    const b = filledEtag("1", prebuilt, [
      ["name", ""],
      ["city", "x"],
    ]);
    expect(a).not.toBe(b);
  });

  it("differs for different values even when they contain NUL characters", () => {
    // Both subscribers get different pages (name and city differ), so the ETags must differ (spec rule 3).
    const a = filledEtag("1", prebuilt, [
      ["name", "x\u0000city\u0000y"],
      ["city", ""],
    ]);
    const b = filledEtag("1", prebuilt, [
      ["name", "x"],
      ["city", "y\u0000city\u0000"],
    ]);
    expect(a).not.toBe(b);
  });
});

describe("contentHash", () => {
  it("is a sha256 hex digest that tells contents apart", () => {
    expect(contentHash("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(contentHash("a")).not.toBe(contentHash("b"));
  });
});
