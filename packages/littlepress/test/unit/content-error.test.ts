import { describe, expect, it } from "vitest";
import {
  chainMessages,
  ContentError,
  findContentError,
  formatProblems,
  type ContentProblem,
} from "../../lib/model/content-error.ts";

const A: ContentProblem = {
  file: "content/a/publication.json",
  field: "editions.by",
  problem: "is missing",
  fix: "add it",
};
const B: ContentProblem = { file: "content/b/editions/x.md", field: "", problem: "has no key", fix: "add one" };

describe("formatProblems", () => {
  it("lists each problem with its file, field, problem and fix", () => {
    expect(formatProblems([A, B])).toBe(
      "littlepress found 2 problems in your content:\n" +
        "  content/a/publication.json: editions.by\n    problem: is missing\n    fix: add it\n" +
        "  content/b/editions/x.md\n    problem: has no key\n    fix: add one",
    );
  });

  it("says 1 problem in the singular", () => {
    expect(formatProblems([A])).toMatch(/^littlepress found 1 problem in your content:/);
  });
});

describe("ContentError", () => {
  it("carries the problems and a readable message", () => {
    const e = new ContentError([A, B]);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("ContentError");
    expect(e.problems).toEqual([A, B]);
    expect(e.message).toBe(formatProblems([A, B]));
  });
});

describe("findContentError", () => {
  it("finds it directly, through cause and through originalError", () => {
    const e = new ContentError([A]);
    expect(findContentError(e)).toBe(e);
    expect(findContentError(new Error("wrap", { cause: e }))).toBe(e);
    expect(
      findContentError(Object.assign(new Error("eleventy"), { originalError: new Error("inner", { cause: e }) })),
    ).toBe(e);
  });

  it("gives undefined when there is none, or for non-objects", () => {
    expect(findContentError(new Error("x"))).toBeUndefined();
    expect(findContentError(undefined)).toBeUndefined();
    expect(findContentError("ContentError")).toBeUndefined();
  });

  it("stops on a cause cycle", () => {
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(findContentError(a)).toBeUndefined();
  });
});

describe("chainMessages", () => {
  it("lists the messages from the outermost error in, through originalError and cause, up to a limit", () => {
    const inner = new Error("invalid value expression, line:1, col:4");
    const wrapped = Object.assign(new Error("Having trouble rendering"), {
      originalError: new Error("", { cause: inner }),
    });
    expect(chainMessages(wrapped)).toEqual(["Having trouble rendering", "invalid value expression, line:1, col:4"]);
    expect(chainMessages(wrapped, 2)).toEqual(["Having trouble rendering"]);
    expect(chainMessages("a string thrown")).toEqual([]);
    const loop: { message: string; cause?: unknown } = { message: "again" };
    loop.cause = loop;
    expect(chainMessages(loop)).toHaveLength(10);
  });
});
