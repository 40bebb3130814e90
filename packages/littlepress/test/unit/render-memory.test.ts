// What npm start keeps between builds (lib/build/render-memory.ts): a fact of
// a page's HTML is worked out once, kept while a build uses it, and dropped
// after a build that did not; an edition file is read again once it is saved.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RenderMemory, workOut } from "../../lib/build/render-memory.ts";
import { loadSite } from "../../lib/build/site.ts";
import type { ContentProblem } from "../../lib/model/content-error.ts";
import { contentFolders, md, pub, problemsOf } from "../helpers/content-folder.ts";

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
    memory.pages.set("/a/", { inputs: ["x"], html: "<p>a</p>" });
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

describe("what edition files gave, kept by the memory (npm start)", () => {
  const folders = contentFolders("unit-memory-");
  afterAll(folders.remove);

  it("reads again only the files saved since, and all of them for another kind of key", () => {
    const dir = folders.content({
      "tales/publication.json": pub("delivery_count"),
      "tales/editions/a.md": md("number: 0", "First."),
      "tales/editions/b.md": md("number: 1", "Second."),
    });
    const memory = new RenderMemory();
    const load = () => loadSite(dir, { read: memory.editionFiles }).publications[0]!.editions.list;
    const [a, b] = load();
    const edited = path.join(dir, "tales/editions/b.md");
    writeFileSync(edited, md("number: 1", "Second, saved again.")); // no word of it: its version tells
    const [a2, b2] = load();
    expect(a2).toBe(a); // the very object: not read again
    expect(b2).not.toBe(b);
    expect(b2!.body).toBe("Second, saved again.\n");

    // Keyed by date now: every file is read again, and each says what its front matter lacks.
    writeFileSync(path.join(dir, "tales/publication.json"), JSON.stringify(pub("local_date")));
    const problems = problemsOf(dir, { read: memory.editionFiles });
    expect(problems.map((p) => p.field)).toEqual(["date", "date"]);
  });

  it("forgets them on clear (a layout or global data changed)", () => {
    const memory = new RenderMemory();
    const problem = {} as ContentProblem;
    memory.editionFiles.set(path.resolve("x.md"), { by: "delivery_count", version: "1:2:3", problem });
    memory.clear();
    expect(memory.editionFiles.size).toBe(0);
  });
});
