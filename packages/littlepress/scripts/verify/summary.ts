// verify's output: one line per publication, and under a publication that is
// not ready, what failed.
import { RenderError } from "../preview/render.ts";
import { ADVISED_PX, browserWarnings, printWarnings, settingsText } from "../preview/summary.ts";
import type { PreviewNote, Verdict } from "./run.ts";
import { plural } from "../../lib/model/words.ts";

/** `width`: the longest slug's, so the lines of a run line up. */
// verify cannot take --config per publication: the author's defaults are its samples.
const DEFAULTS_HINT = "verify subscribes with each text field's default: give such a field a default it accepts";
// A page late on a busy machine may load in time on a quiet one, as on the printer's.
const LATE_HINT = "a busy machine renders slowly: npm run verify -- --page-timeout SECONDS gives each page longer";

export function formatVerdict(v: Verdict, width = 0): string {
  const c = v.report.counts;
  const checks = `${c.pass} passed, ${c.fail} failed, ${c.skip} skipped over ${v.window}`;
  const previewed = v.preview ? `; ${previewLine(v.preview)}` : "";
  const lines = [`${v.ok ? "PASS" : "FAIL"}  ${`${v.slug}:`.padEnd(width + 1)} ${checks}${previewed}`];
  for (const check of v.report.checks.filter((x) => x.status === "fail")) {
    lines.push(`      FAIL ${check.id}: ${check.title}`, `           ${check.detail}`);
    if (check.request) lines.push(`           ${check.request}`);
    if (check.id === "subscribe.accepts-valid") lines.push(`           ${DEFAULTS_HINT}`);
  }
  if (v.preview?.error) lines.push(`      FAIL preview: ${v.preview.error}`);
  for (const row of v.preview?.rows ?? []) {
    if (row.error !== undefined) {
      const settings = row.settings !== undefined ? ` with ${settingsText(row)}` : "";
      lines.push(`      FAIL preview of edition ${row.key}${settings}: ${row.error}`);
    }
  }
  if (v.preview?.rows.some((row) => row.error && RenderError.saysLate(row.error)))
    lines.push(`           ${LATE_HINT}`);
  for (const warning of printWarnings(v.preview?.rows ?? [])) lines.push(`      FAIL preview: ${warning}`);
  for (const warning of browserWarnings(v.preview?.rows ?? [])) lines.push(`      WARN preview: ${warning}`);
  return lines.join("\n") + "\n";
}

/** "7 editions previewed, up to 1178 px (7 longer than the advised 800 px)". */
function previewLine(p: PreviewNote): string {
  if (p.error) return "no preview";
  const shown = p.rows.filter((r) => r.heightPx !== undefined);
  const heights = shown.map((r) => r.heightPx!);
  const editions = new Set(shown.map((r) => r.key)).size;
  const long = heights.filter((h) => h > ADVISED_PX).length;
  const tallest = heights.length ? `, up to ${Math.max(...heights)} px` : "";
  const longer = long ? ` (${long} longer than the advised ${ADVISED_PX} px)` : "";
  // With settings: how many variants (edition and settings) there were, and how many distinct pages they made.
  const variants =
    p.variants !== undefined && p.variants > editions
      ? ` with every setting (${plural(p.variants, "variant")}, ${plural(p.pages ?? 0, "distinct page")})`
      : "";
  return `${plural(editions, "edition")} previewed${variants}${tallest}${longer}`;
}
