// verify's output: one line per publication, and under a publication that is
// not ready, what failed.
import { ADVISED_PX } from "../preview/summary.ts";
import type { PreviewNote, Verdict } from "./run.ts";

/** `width`: the longest slug's, so the lines of a run line up. */
export function formatVerdict(v: Verdict, width = 0): string {
  const c = v.report.counts;
  const checks = `${c.pass} passed, ${c.fail} failed, ${c.skip} skipped over ${v.window}`;
  const lines = [`${v.ok ? "PASS" : "FAIL"}  ${`${v.slug}:`.padEnd(width + 1)} ${checks}${v.preview ? `; ${previewLine(v.preview)}` : ""}`];
  for (const check of v.report.checks.filter((x) => x.status === "fail")) {
    lines.push(`      FAIL ${check.id}: ${check.title}`, `           ${check.detail}`);
    if (check.request) lines.push(`           ${check.request}`);
  }
  if (v.preview?.error) lines.push(`      FAIL preview: ${v.preview.error}`);
  for (const row of v.preview?.rows.filter((r) => r.error !== undefined) ?? []) lines.push(`      FAIL preview of edition ${row.key}: ${row.error}`);
  return lines.join("\n") + "\n";
}

/** "7 editions previewed, up to 1178 px (7 longer than the advised 800 px)". */
function previewLine(p: PreviewNote): string {
  if (p.error) return "no preview";
  const heights = p.rows.flatMap((r) => (r.heightPx === undefined ? [] : [r.heightPx]));
  const long = heights.filter((h) => h > ADVISED_PX).length;
  const tallest = heights.length ? `, up to ${Math.max(...heights)} px` : "";
  return `${heights.length} edition${heights.length === 1 ? "" : "s"} previewed${tallest}${long ? ` (${long} longer than the advised ${ADVISED_PX} px)` : ""}`;
}
