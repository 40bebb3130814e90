// The checker's core, shared by the CLI and the tests: play the platform
// against one publication URL and return the report.
import type { CheckContext } from "./context.ts";
import { checkBadValues } from "./bad-values.ts";
import { checkBrowserViews } from "./browser-checks.ts";
import { CHECK_IDS } from "./catalogue.ts";
import { runDeliveries } from "./delivery-runs.ts";
import { todayIn } from "../../lib/model/time-zones.ts";
import { checkIcon } from "./icon-checks.ts";
import { checkMeta } from "./meta-checks.ts";
import { finish, type Report, skip } from "./report.ts";
import { checkResponses } from "./response-checks.ts";
import { checkSequences } from "./sequence-checks.ts";
import { checkSubscribe } from "./subscribe-checks.ts";

export interface CheckOptions {
  /** The publication's URL: where meta.json, edition/ and validate_config/ live. */
  base: string;
  /** First local delivery date, YYYY-MM-DD; today in the first zone when omitted. */
  start?: string;
  days: number;
  hour: number;
  /** Printer time zones (IANA names); each gets its own run when local_delivery_time is sent. */
  zones: string[];
  timeoutMs: number;
  /** Values for config fields, instead of the samples the checker picks. */
  config: Record<string, string>;
  strict: boolean;
  progress?: (line: string) => void;
}

export async function runCheck(options: CheckOptions): Promise<Report> {
  const ctx: CheckContext = {
    base: normalizeBase(options.base),
    timeoutMs: options.timeoutMs,
    progress: options.progress ?? (() => {}),
  };
  const plan = {
    start: options.start ?? todayIn(options.zones[0] ?? "UTC"),
    days: options.days,
    hour: options.hour,
    zones: options.zones,
    strict: options.strict,
  };
  const meta = await checkMeta(ctx);
  const publication = meta.publication;
  if (!publication) {
    const why = "needs a readable meta.json";
    const done = new Set(meta.checks.map((c) => c.id));
    return finish(ctx.base, plan, [
      ...meta.checks,
      ...CHECK_IDS.filter((id) => !done.has(id)).map((id) => skip(id, why)),
    ]);
  }
  const icon = await checkIcon(ctx);
  const subscribe = await checkSubscribe(ctx, publication, options.config);
  const browser = await checkBrowserViews(ctx);
  const deliveries = await runDeliveries(ctx, publication, { ...plan, config: subscribe.config });
  const bad = await checkBadValues(ctx, publication, {
    start: plan.start,
    hour: plan.hour,
    zone: plan.zones[0] ?? "UTC",
    config: subscribe.config,
  });
  const answers = [browser.bare, ...deliveries.flatMap((d) => (d.repeat ? [d.first, d.repeat] : [d.first]))];
  const checks = [
    ...meta.checks,
    ...icon,
    ...subscribe.checks,
    ...browser.checks,
    ...checkResponses(answers, bad.answers),
    ...bad.checks,
    ...checkSequences(deliveries, publication),
  ];
  const summary = {
    name: publication.name,
    sendTimezoneInfo: publication.sendTimezoneInfo,
    sendDeliveryCount: publication.sendDeliveryCount,
    fields: publication.fields.length,
  };
  return finish(ctx.base, plan, checks, summary);
}

/** ".../pub", ".../pub/" and ".../pub/meta.json" all mean the publication at ".../pub/". */
export function normalizeBase(url: string): string {
  const u = new URL(url);
  u.search = "";
  u.hash = "";
  u.pathname = u.pathname.replace(/meta\.json$/, "").replace(/\/?$/, "/");
  return u.href;
}
