// Command-line arguments -> CheckOptions, with a plain sentence for each
// mistake (the CLI prints it with the usage and exits 2, no stack trace).
import { parseToolArgs, timeoutProblem } from "../cli.ts";
import { isTimeZone } from "../../lib/model/time-zones.ts";
import { quotedUrl } from "../../lib/model/shown-url.ts";
import type { CheckOptions } from "./run-check.ts";

export const USAGE = `Usage: npm run check -- <base_url> [options]

Plays the printer platform against a publication and says whether it will work.
<base_url> is where meta.json, edition/ and validate_config/ live.

Options:
  --days N            days of deliveries to play (default 14)
  --hour H            local delivery hour, 0-23 (default 6)
  --tz ZONE           printer time zone, e.g. Europe/London; repeat for several (default UTC)
  --start YYYY-MM-DD  first delivery date (default today)
  --config NAME=VALUE value for a config field instead of the checker's sample; repeatable
  --timeout SECONDS   per-request time limit (default 10)
  --json              print a machine-readable report
  --strict            count warnings as failures
  -h, --help          show this help

Any FAIL is exit 1; a warning is, with --strict.

Example:
  npm run check -- http://127.0.0.1:8080/lighthouse/ --days 7 --tz Europe/London`;

export type Parsed = { help: true } | { error: string } | { options: CheckOptions; json: boolean };

export function parseCheckArgs(argv: string[]): Parsed {
  const parsed = parseToolArgs(argv, {
    days: { type: "string", default: "14" },
    hour: { type: "string", default: "6" },
    tz: { type: "string", multiple: true },
    start: { type: "string" },
    config: { type: "string", multiple: true },
    timeout: { type: "string", default: "10" },
    json: { type: "boolean", default: false },
    strict: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if ("error" in parsed) return parsed;
  const { values: v, positionals } = parsed;
  if (v.help) return { help: true };
  if (positionals.length !== 1)
    return {
      error: positionals.length
        ? `expected one URL, got ${positionals.length}: ${positionals.join(" ")}`
        : "give the publication's URL",
    };
  try {
    const options: CheckOptions = {
      base: checkUrl(positionals[0]!),
      days: integer("--days", v.days, 1, 366),
      hour: integer("--hour", v.hour, 0, 23),
      zones: zones(v.tz ?? ["UTC"]),
      start: v.start === undefined ? undefined : date(v.start),
      timeoutMs: seconds(v.timeout) * 1000,
      config: configPairs(v.config ?? []),
      strict: v.strict,
    };
    return { options, json: v.json };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function checkUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${quotedUrl(text)} is not a URL; give one like http://127.0.0.1:8080/my-publication/`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`${quotedUrl(text)} is not an http(s) URL`);
  // The URL is printed in the report, and a fetch refuses one with credentials anyway.
  if (url.username || url.password) throw new Error("a publication URL carries no user name or password");
  return url.href;
}

function integer(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max)
    throw new Error(`${flag} must be a whole number from ${min} to ${max}, not "${text}"`);
  return n;
}

function seconds(text: string): number {
  const problem = timeoutProblem(text);
  if (problem) throw new Error(problem);
  return Number(text);
}

function zones(list: string[]): string[] {
  const bad = list.find((z) => !isTimeZone(z));
  if (bad !== undefined)
    throw new Error(`--tz "${bad}" is not a time zone this Node knows; use an IANA name like Europe/London`);
  return list;
}

function date(text: string): string {
  const ok = /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
  if (!ok) throw new Error(`--start must be a date written YYYY-MM-DD, not "${text}"`);
  return text;
}

function configPairs(list: string[]): Record<string, string> {
  const config: Record<string, string> = {};
  for (const pair of list) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new Error(`--config takes NAME=VALUE, not "${pair}"`);
    config[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return config;
}
