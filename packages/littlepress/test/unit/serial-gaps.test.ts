import { describe, expect, it } from "vitest";
import { serialGaps } from "../../lib/build/serial-gaps.ts";
import { publicationSource } from "../helpers/publication-source.ts";

const problems = (keys: string[], ends = true) =>
  serialGaps(publicationSource({ keys, ends })).map((w) => [w.file, w.problem.split(" (204")[0], w.fix]);

describe("a gap in a finite serial", () => {
  it("is named at the part after it, with the numbers missing and the deliveries that get nothing", () => {
    expect(problems(["0", "2", "5", "9"])).toEqual([
      [
        "content/test/editions/2.md",
        "the serial has no edition numbered 1: delivery 1 gets nothing",
        "number the editions 0, 1, 2, … without a gap: renumber this one 1, or add an edition numbered 1",
      ],
      [
        "content/test/editions/5.md",
        "the serial has no edition numbered 3 or 4: deliveries 3 and 4 each get nothing",
        "number the editions 0, 1, 2, … without a gap: renumber this one 3, or add an edition numbered 3",
      ],
      [
        "content/test/editions/9.md",
        "the serial has no edition numbered 6 to 8: deliveries 6 to 8 each get nothing",
        "number the editions 0, 1, 2, … without a gap: renumber this one 6, or add an edition numbered 6",
      ],
    ]);
  });

  it("is a serial's that starts past 0; an open serial may skip, and one without a gap says nothing", () => {
    expect(problems(["1", "2"]).map(([, problem]) => problem)).toEqual([
      "the serial has no edition numbered 0: delivery 0 gets nothing",
    ]);
    expect(problems(["0", "3"], false)).toEqual([]);
    expect(problems(["0", "1", "2"])).toEqual([]);
  });
});
