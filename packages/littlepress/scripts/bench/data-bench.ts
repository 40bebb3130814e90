// Editions from data (issue 14): a publication of CSV rows and a ten-year
// daily recurring publication, each built by littlepress and by plain Eleventy
// paginating the same rows (the CSV read by csv-parse as an Eleventy data
// extension; the dates computed by a JavaScript data file with the same Intl
// names), with the same layout and CSS. Alternated pairs, wall clock, peak RSS.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  buildSide,
  littlepressBuild,
  plainBuild,
  type BuildRun,
  type BuildSide,
  type BuildTools,
} from "./build-bench.ts";
import { TextMaker, type SyntheticSite } from "./generate.ts";
import { median, progress } from "./util.ts";

/** One data publication, built both ways. */
export interface DataBuildRow {
  /** "10,000 CSV rows", "daily for 10 years". */
  name: string;
  editions: number;
  pairs: number;
  littlepress: BuildSide;
  plain: BuildSide;
  /** Median over the pairs of littlepress/plain editions per second. */
  ratio: number;
}

export interface DataBenchSizes {
  rows: number;
  /** The recurring publication's span, first and last date. */
  from: string;
  until: string;
  pairs: number;
}

export const FULL_DATA_SIZES: DataBenchSizes = { rows: 10_000, from: "2026-01-01", until: "2035-12-31", pairs: 3 };
export const QUICK_DATA_SIZES: DataBenchSizes = { rows: 200, from: "2026-01-01", until: "2026-03-31", pairs: 1 };

/** Both data publications, each as littlepress content and as a plain Eleventy site. */
export async function benchDataBuilds(tools: BuildTools, sizes: DataBenchSizes): Promise<DataBuildRow[]> {
  const work = path.join(tools.work, "data");
  const includes = path.join(tools.work, "plain", "_includes"); // prepareBuildTools's layout and CSS
  const csv = csvSites(work, sizes.rows, includes);
  const daily = recurringSites(work, sizes.from, sizes.until, includes);
  const rows: DataBuildRow[] = [];
  for (const sites of [csv, daily]) rows.push(await pairs(tools, sites, sizes.pairs));
  return rows;
}

interface Sites {
  name: string;
  editions: number;
  littlepress: string;
  plain: string;
}

async function pairs(tools: BuildTools, sites: Sites, count: number): Promise<DataBuildRow> {
  const lp: BuildRun[] = [];
  const pl: BuildRun[] = [];
  const ratios: number[] = [];
  const site = (dir: string): SyntheticSite => ({
    dir,
    editions: sites.editions,
    pages: sites.editions,
    serial: { count: 0 },
    daily: { count: 0, dates: [], gaps: [], today: "" },
    choices: { count: 0 },
  });
  const output = path.join(path.dirname(sites.littlepress), "site");
  for (let i = 0; i < count; i++) {
    for (const side of i % 2 === 0 ? (["littlepress", "plain"] as const) : (["plain", "littlepress"] as const)) {
      progress(`build ${sites.name}: ${side} (pair ${i + 1}/${count})`);
      const run =
        side === "littlepress"
          ? await littlepressBuild(tools, site(sites.littlepress), output)
          : await plainBuild(
              { ...tools, plainConfig: path.join(sites.plain, "eleventy.config.mjs") },
              site(sites.plain),
              `${output}-plain`,
            );
      (side === "littlepress" ? lp : pl).push(run);
      progress(
        `  ${(run.ms / 1000).toFixed(1)} s, ${(sites.editions / (run.ms / 1000)).toFixed(0)} editions/s, ` +
          `max RSS ${(run.maxRss / 2 ** 20).toFixed(0)} MiB`,
      );
    }
    ratios.push(pl[i]!.ms / lp[i]!.ms);
  }
  return {
    name: sites.name,
    editions: sites.editions,
    pairs: count,
    littlepress: buildSide(lp, sites.editions),
    plain: buildSide(pl, sites.editions),
    ratio: median(ratios),
  };
}

const quoted = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** A word a day for `count` days: editions.csv + edition.md, and the same rows paginated by plain Eleventy. */
function csvSites(work: string, count: number, includes: string): Sites {
  const text = new TextMaker(count);
  const lines = ["date,title,word,text"];
  for (let i = 0; i < count; i++) {
    const date = new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10);
    // Titles with commas and quotes, and text over several lines: the CSV is quoted as a spreadsheet writes it.
    lines.push(
      [date, quoted(`${text.title()}, "${text.title()}"`), text.title(), quoted(text.paragraphs(4, 330))].join(","),
    );
  }
  const csv = lines.join("\r\n") + "\r\n";
  const body = "**{{ word }}**\n\n{{ text }}\n";
  const littlepress = path.join(work, "csv", "content");
  publication(littlepress, "words", { by: "local_date" });
  writeFileSync(path.join(littlepress, "words", "editions.csv"), csv);
  writeFileSync(path.join(littlepress, "words", "edition.md"), body);
  const plain = path.join(work, "csv", "plain");
  mkdirSync(path.join(plain, "_data"), { recursive: true });
  writeFileSync(path.join(plain, "_data", "rows.csv"), csv);
  writeFileSync(
    path.join(plain, "rows.md"),
    paginated("rows", "row.date", "row.title") + body.replace(/\{\{ (\w+) \}\}/g, "{{ row.$1 }}"),
  );
  plainConfig(
    plain,
    includes,
    'import { parse } from "csv-parse/sync";',
    (config) =>
      `${config}.addDataExtension("csv", (text) => parse(text, { columns: true, bom: true, skip_empty_lines: true }));`,
  );
  return { name: `${count.toLocaleString("en-US")} CSV rows`, editions: count, littlepress, plain };
}

/** Every day from `from` to `until`, in French: publication.json's rule + edition.md, and a data file for plain. */
function recurringSites(work: string, from: string, until: string, includes: string): Sites {
  const text = new TextMaker(7).paragraphs(3, 300);
  const body = (v: string) =>
    `# {{ ${v}.weekday }} {{ ${v}.day }} {{ ${v}.month }} {{ ${v}.year }}\n\n` +
    `Jour {{ ${v}.day_of_year }}, semaine {{ ${v}.iso_week }}.\n\n${text}`;
  const littlepress = path.join(work, "daily", "content");
  publication(littlepress, "daily", { by: "local_date", every: "day", from, until });
  writeFileSync(path.join(littlepress, "daily", "edition.md"), `---\nlang: fr\n---\n${body("day")}`);
  const plain = path.join(work, "daily", "plain");
  mkdirSync(path.join(plain, "_data"), { recursive: true });
  // What an Eleventy author would write: the dates and their names, computed in a data file.
  writeFileSync(
    path.join(plain, "_data", "days.js"),
    `const name = (o) => new Intl.DateTimeFormat("fr", { ...o, timeZone: "UTC" });
const weekday = name({ weekday: "long" });
const month = name({ month: "long" });
export default function () {
  const days = [];
  for (let t = Date.parse(${JSON.stringify(from)}); t <= Date.parse(${JSON.stringify(until)}); t += 86400000) {
    const d = new Date(t);
    const thursday = new Date(t + (4 - (d.getUTCDay() || 7)) * 86400000);
    const jan1 = Date.UTC(thursday.getUTCFullYear(), 0, 1);
    days.push({
      date: d.toISOString().slice(0, 10),
      weekday: weekday.format(d),
      month: month.format(d),
      day: d.getUTCDate(),
      year: d.getUTCFullYear(),
      day_of_year: Math.round((t - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1,
      iso_week: Math.floor(Math.round((thursday - jan1) / 86400000) / 7) + 1,
    });
  }
  return days;
}
`,
  );
  writeFileSync(path.join(plain, "days.md"), paginated("days", "d.date") + body("d"));
  plainConfig(plain, includes, "", (config) => `${config}.addGlobalData("lang", "fr");`);
  const editions = Math.round((Date.parse(until) - Date.parse(from)) / 86_400_000) + 1;
  return { name: `daily from ${from} to ${until}`, editions, littlepress, plain };
}

function publication(content: string, slug: string, editions: object) {
  mkdirSync(path.join(content, slug), { recursive: true });
  const settings = {
    name: slug,
    description: "Benchmark content.",
    owner_email: "bench@example.com",
    delivered_on: "Every day",
    editions,
  };
  writeFileSync(path.join(content, slug, "publication.json"), JSON.stringify(settings, null, 2) + "\n");
}

/** Eleventy pagination front matter: one page per item of `data`, at /<key>/. */
function paginated(data: string, key: string, title?: string): string {
  const alias = key.split(".")[0]!;
  return (
    `---\npagination:\n  data: ${data}\n  size: 1\n  alias: ${alias}\n` +
    `permalink: "/{{ ${key} }}/index.html"\n` +
    (title ? `eleventyComputed:\n  title: "{{ ${title} }}"\n` : "") +
    "---\n"
  );
}

/** The plain side's config: the layout of the main build benchmark (same CSS inlined), and `extra`. */
function plainConfig(dir: string, includes: string, imports: string, extra: (config: string) => string) {
  writeFileSync(
    path.join(dir, "eleventy.config.mjs"),
    `${imports}
import path from "node:path";
const includes = ${JSON.stringify(path.resolve(includes))};
export default function (eleventyConfig) {
  eleventyConfig.setUseGitIgnore(false);
  eleventyConfig.addGlobalData("layout", "plain.njk");
  ${extra("eleventyConfig")}
  return {
    dir: { includes: path.relative(eleventyConfig.directories.input, includes) },
    markdownTemplateEngine: "liquid",
    htmlTemplateEngine: "liquid",
  };
}
`,
  );
}
