// content/site.json: the site-wide settings of a folder of publications
// (`root`, `url`, `print_key_origins`, `max_subscriptions`), each checked on
// its own, every problem said with the field and the fix.
import { existsSync } from "node:fs";
import path from "node:path";
import type { ContentProblem } from "../model/content-error.ts";
import { printKeyOriginsFrom } from "../model/print-key.ts";
import { quotedUrl } from "../model/shown-url.ts";
import { parseJson } from "./json-file.ts";
import type { Site } from "./site.ts";
import { readText } from "./text-file.ts";

/** The settings content/site.json gives the site. */
export type SiteSettings = Pick<Site, "root" | "url" | "printKeyOrigins" | "maxSubscriptions">;

/** One setting's value, or what is wrong with it and the fix. */
type Checked = { value: unknown } | { problems: string[]; fix: string };

/** content/site.json's settings, checked; `slugs` are the publications `root` may name. */
export function readSiteSettings(contentDir: string, slugs: string[], problems: ContentProblem[]): SiteSettings {
  const file = path.join(contentDir, "site.json");
  const given = siteJson(file, problems);
  if (!given) return {};
  const checks: [keyof SiteSettings, string, (value: unknown) => Checked][] = [
    ["root", "root", (value) => rootSetting(value, slugs, contentDir)],
    ["url", "url", urlSetting],
    ["printKeyOrigins", "print_key_origins", originsSetting],
    ["maxSubscriptions", "max_subscriptions", maxSetting],
  ];
  const settings: Record<string, unknown> = {};
  for (const [key, field, check] of checks) {
    if (given[field] === undefined) continue;
    const checked = check(given[field]);
    if ("value" in checked) settings[key] = checked.value;
    else for (const problem of checked.problems) problems.push({ file, field, problem, fix: checked.fix });
  }
  return settings;
}

/** The file's names and values; undefined when there is none, or it does not read or parse (said in `problems`). */
function siteJson(file: string, problems: ContentProblem[]): Record<string, unknown> | undefined {
  if (!existsSync(file)) return undefined;
  const read = readText(file);
  const parsed = "problem" in read ? read : parseJson(file, read.text);
  if ("problem" in parsed) {
    problems.push(parsed.problem);
    return undefined;
  }
  return (parsed.value ?? {}) as Record<string, unknown>;
}

function rootSetting(root: unknown, slugs: string[], contentDir: string): Checked {
  if (typeof root === "string" && slugs.includes(root)) return { value: root };
  const problem = `${JSON.stringify(root)} is not a publication in ${contentDir}`;
  return { problems: [problem], fix: `use one of: ${slugs.join(", ")}` };
}

function urlSetting(url: unknown): Checked {
  if (typeof url === "string" && /^https?:\/\/[^/\s]+/.test(url)) return { value: url.replace(/\/+$/, "") };
  return {
    problems: [`${typeof url === "string" ? quotedUrl(url) : JSON.stringify(url)} is not an http(s) URL`],
    fix: 'write the address the site is deployed at, such as "https://my-press.netlify.app"',
  };
}

function originsSetting(origins: unknown): Checked {
  const read = printKeyOriginsFrom(origins);
  if (!read.problems.length) return { value: read.origins };
  return {
    problems: read.problems,
    fix:
      "list the printer services subscribers may use, such as " +
      '["https://littleprinter.nordprojects.co", "https://device.li"]; ' +
      'one on your own network as {"origin": "http://192.168.1.20:5000", "private": true}',
  };
}

function maxSetting(max: unknown): Checked {
  if (Number.isSafeInteger(max) && (max as number) >= 0) return { value: max };
  return {
    problems: [`${JSON.stringify(max)} is not a whole number of subscriptions`],
    fix: "write how many live subscriptions each publication takes at most, such as 1000 (0 closes subscribing)",
  };
}
