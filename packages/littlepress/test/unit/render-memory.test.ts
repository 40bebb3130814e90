// What npm start keeps between builds (lib/build/render-memory.ts): a fact of
// a page's HTML is worked out once, kept while a build uses it, and dropped
// after a build that did not.
import { describe, expect, it } from "vitest";
import { RenderMemory, workOut } from "../../lib/build/render-memory.ts";

describe("RenderMemory", () => {
  it("works a fact out once for the same HTML, and apart for each name and each HTML", () => {
    const memory = new RenderMemory();
    let made = 0;
    const length = (html: string) => memory.remember(html, "length", () => (made++, html.length));
    expect([length("<p>a</p>"), length("<p>a</p>"), length("<p>bb</p>")]).toEqual([8, 8, 9]);
    expect(made).toBe(2);
    expect(memory.remember("<p>a</p>", "upper", () => "<P>A</P>")).toBe("<P>A</P>");
  });

  it("drops the facts of HTML a build did not use, and keeps those it did", () => {
    const memory = new RenderMemory();
    let made = 0;
    const fact = (html: string) => memory.remember(html, "f", () => ++made);
    fact("old page");
    fact("kept page");
    memory.built();
    fact("kept page"); // the next build uses only this one
    memory.built();
    expect(fact("kept page")).toBe(2);
    expect(fact("old page")).toBe(3); // worked out again: it was dropped
  });

  it("forgets pages and facts on clear (a layout or global data changed)", () => {
    const memory = new RenderMemory();
    memory.pages.set("/a/", { inputs: "x", html: "<p>a</p>" });
    memory.remember("<p>a</p>", "f", () => 1);
    memory.clear();
    expect(memory.pages.size).toBe(0);
    expect(memory.remember("<p>a</p>", "f", () => 2)).toBe(2);
  });

  it("without memory, every fact is worked out as asked", () => {
    let made = 0;
    workOut("<p>a</p>", "f", () => ++made);
    workOut("<p>a</p>", "f", () => ++made);
    expect(made).toBe(2);
  });
});
