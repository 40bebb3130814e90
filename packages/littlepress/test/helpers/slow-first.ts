// The order test files start in. Vitest starts the longest first when an
// earlier run left their durations (node_modules/.vite), and otherwise the
// largest file first. A first run has none: a fresh clone, CI, a newcomer's
// first `npm test`. By size, the quick benchmark's smoke test (a minute and a
// half among the others) started halfway through and ran alone at the end:
// 201 s against 190 s with the durations known.
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Folders under test/ whose files run longest, longest first: each spends its time in child processes. */
export const SLOW_FOLDERS = ["bench", "fuzz", "verify", "preview", "parity", "integration", "desk"];

/** The place of a test file's folder in SLOW_FOLDERS; files elsewhere (unit tests, in-process) come last. */
export function slowness(file: string): number {
  const folder = path.relative("test", file).split(path.sep)[0] ?? "";
  const rank = SLOW_FOLDERS.indexOf(folder);
  return rank === -1 ? SLOW_FOLDERS.length : rank;
}

export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const known = (f: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${f.project.name}:${path.relative(root, f.moduleId)}`) !== undefined;
    if (files.every(known)) return sorted;
    // Stable: within a folder, Vitest's order (the largest file first).
    const rank = (f: TestSpecification) => slowness(path.relative(root, f.moduleId));
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
