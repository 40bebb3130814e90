// A push run: prints the push editions of the built site (lib/model/push.ts)
// to every subscription that was live when each was published, once each.
// On Netlify a deploy runs one as soon as it is live (deploy-push.ts, the
// deploy-succeeded-background function; a build hook starts a deploy), and
// the scheduled function runs one after planning its deliveries, which
// catches what is left (offline printers, a run out of time);
// `npm run push -- <slug> <edition>` runs one by hand for one edition, and
// `npm run deliver` after its deliveries.
//
// Each subscriber's copy is the one /edition/ answers for that edition and
// their settings (the same prebuilt variant, text settings filled in): it is
// read from the built site's data, not asked over HTTP, since a push edition
// is named by its key and /edition/ picks by day and count. It goes through
// the same print-key client as every delivery (allow-list, public addresses
// only, no redirects, bounded), from the publication's name.
//
// Once per subscription and edition: each copy is a print job
// (lib/platform/printing/print-job.ts) whose record is pushed/<id>/<edition>,
// with every job's claim, settle, window and rule (a copy sent with no answer
// is unknown, never sent again).
import pLimit from "p-limit";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import type { EditionKey } from "../../model/edition-key.ts";
import { pushEligible, type PushEntry } from "../../model/push.ts";
import { siteDataDir } from "../../model/site-paths.ts";
import type { Subscription } from "../../model/subscription.ts";
import { openPublication } from "../../edge/publication-store.ts";
import { siteIndexOf } from "../../edge/site-index.ts";
import type { PrintKeyPolicy } from "../printers/print-key-client.ts";
import type { JobRunner } from "../printing/print-job.ts";
import type { StateStore } from "../stores/state-store.ts";
import { pushKey } from "../stores/store-keys.ts";
import { copyRunner, lineOf, pushOne, PUSH_CONCURRENCY, type FoundPush, type PushLine } from "./push-copy.ts";

export type { PushLine } from "./push-copy.ts";
import { storedSubscriptions } from "../stores/subscriptions.ts";

export interface PushRunOptions {
  store: StateStore;
  /** The built site (its functions' data is read beside it: site-paths.ts's siteDataDir). */
  site: string;
  sealKey: Buffer;
  printKeys: PrintKeyPolicy;
  /** The run's instant. */
  at: Date;
  /**
   * The site's address, where a deployed function fetches the shards published
   * as static files (a site too large for the function bundle: publication-store.ts);
   * none: a local build, whose shards are all on this disk.
   */
  origin?: string;
  /** Only this push edition (npm run push); default: every one the site marks. */
  only?: { slug: string; edition: EditionKey };
  /** Only say what would be sent: no claims, no POSTs, nothing written. */
  dryRun?: boolean;
  /** Copies worked on at once, and the most pages in flight to one print service (default 16). */
  concurrency?: number;
  /** The longest a send waits for the print service's answer (default PRINT_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * The run's end on performance.now()'s clock: no send waits past it, and none starts too close to it; default: none.
   */
  endBy?: number;
}

export interface PushReport {
  /** The push editions looked at (with their publish time), done ones included. */
  pushes: {
    slug: string;
    edition: EditionKey;
    published: string;
    done: boolean;
    /** Live subscriptions made after it was published, which it is not for (counted when the run read them). */
    later?: number;
  }[];
  lines: PushLine[];
  /** Copies still to print that this run did not start, its time being up. */
  left: number;
  /** Copies sent with no answer: they may have printed, and are not sent again. */
  unknown: number;
}

/** The push editions of a built site, by publication (none when it has no functions' data). */
export async function pushEditionsOf(site: string, origin?: string): Promise<FoundPush[]> {
  const found: FoundPush[] = [];
  // A site without functions' data (never built, or built without publications) has no push editions.
  const dirs = await readdir(siteDataDir(site), { withFileTypes: true }).catch(() => []);
  for (const dir of dirs.filter((d) => d.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    // A folder that is not a publication's data (or one the edition function could not open either) pushes nothing.
    const pub = await openPublication(dir.name, site, origin).catch(() => undefined);
    const push = pub?.index.push;
    if (!pub || !push) continue;
    for (const edition of push.editions) found.push({ slug: dir.name, edition, built: push.built, pub });
  }
  return found;
}

export async function runPushes(o: PushRunOptions): Promise<PushReport> {
  const all = await pushEditionsOf(o.site, o.origin);
  const wanted = o.only ? all.filter((p) => p.slug === o.only!.slug && p.edition === o.only!.edition) : all;
  const report: PushReport = { pushes: [], lines: [], left: 0, unknown: 0 };
  if (!wanted.length) return report;
  const jobs = copyRunner(o);
  const root = siteIndexOf(o.site).root;
  // Read once, and only when a push still owes copies: a site whose pushes are all done reads none
  // (the scheduled run comes here every 15 minutes).
  let subs: Promise<Subscription[]> | undefined;
  const liveFor = async (slug: string) =>
    (await (subs ??= storedSubscriptions(o.store))).filter(
      (s) => (s.slug === slug || (s.slug === "" && root === slug)) && !s.ended,
    );
  for (const push of wanted) await runPush(o, jobs, push, liveFor, report);
  report.lines.sort((a, b) => a.slug.localeCompare(b.slug) || a.subscription.localeCompare(b.subscription));
  report.unknown = report.lines.filter((l) => l.outcome === "unknown").length;
  return report;
}

/** One push edition: a copy to every live subscription it owes one, then marked done when none is left open. */
async function runPush(
  o: PushRunOptions,
  jobs: JobRunner,
  push: FoundPush,
  liveFor: (slug: string) => Promise<Subscription[]>,
  report: PushReport,
): Promise<void> {
  const entry = await pushEntry(o, push);
  const done = entry.value.done !== undefined;
  const summary: PushReport["pushes"][number] = {
    slug: push.slug,
    edition: push.edition,
    published: entry.value.published,
    done,
  };
  report.pushes.push(summary);
  // A push done stays done (those it owes are all settled; no one made later gets it), unless asked by name.
  if (done && !o.only) return;
  const name = await publicationName(o.site, push.slug);
  const shard = await push.pub.shardFor(push.edition);
  if (shard && Object.hasOwn(shard.editions, push.edition)) push.shard = shard;
  const live = await liveFor(push.slug);
  const owed = live.filter((s) => pushEligible(s, entry.value.published));
  summary.later = live.length - owed.length;
  const open = await sendCopies(o, jobs, push, owed, name, report);
  // Nothing left to do for it: later runs skip it (one conditional write; a run that loses it changes nothing).
  if (!open && !done && !o.dryRun) {
    await o.store.replace(
      pushKey(push.slug, push.edition),
      { ...entry.value, done: o.at.toISOString() },
      entry.version,
    );
    summary.done = true;
  }
}

/** A copy of `push` to each of `owed`, their lines in `report`: how many are left open (to try again). */
async function sendCopies(
  o: PushRunOptions,
  jobs: JobRunner,
  push: FoundPush,
  owed: Subscription[],
  name: string,
  report: PushReport,
): Promise<number> {
  let open = 0;
  await pLimit(o.concurrency ?? PUSH_CONCURRENCY).map(owed, async (sub) => {
    // The store failed under this copy: said in its line, and left open for the next run.
    const line = await pushOne(o, jobs, push, sub, name).catch((error: unknown): PushLine & { open: boolean } => ({
      ...lineOf(push, sub, "error", `the store failed: ${(error as Error).message}`),
      open: true,
    }));
    if (line.open) open++;
    if (line.outcome === "left") report.left++;
    else if (line.outcome !== "done") report.lines.push(strip(line));
  });
  return open;
}

const strip = ({ open: _open, ...line }: PushLine & { open: boolean }): PushLine => line;

/** The push as the store keeps it: stamped with its build's time by the first run that sees it. */
async function pushEntry(o: PushRunOptions, push: FoundPush): Promise<{ value: PushEntry; version: string }> {
  const key = pushKey(push.slug, push.edition);
  const fresh: PushEntry = { slug: push.slug, edition: push.edition, published: push.built };
  if (o.dryRun) {
    const held = await o.store.get<PushEntry>(key);
    return held ?? { value: fresh, version: "" };
  }
  await o.store.create(key, fresh);
  const held = await o.store.get<PushEntry>(key);
  if (!held) throw new Error(`the push ${key} went while the run read it`);
  return held;
}

/** The publication's name, from its built meta.json (the slug when it cannot be read). */
async function publicationName(site: string, slug: string): Promise<string> {
  try {
    const meta = JSON.parse(await readFile(path.join(site, slug, "meta.json"), "utf8")) as { name?: unknown };
    return typeof meta.name === "string" && meta.name ? meta.name : slug;
  } catch {
    // A copy is still sent without meta.json's name: it goes out under the publication's slug.
    return slug;
  }
}

/**
 * A push run in a function: the scheduled one's, after its deliveries
 * (scheduled-run.ts), and the deploy's (deploy-push.ts). Within the
 * function's budget (no send waits past `endBy` on performance.now()'s
 * clock), logging a line per copy. Never throws: what fails is left to the
 * next run, which does it again; the report, or undefined when the run failed.
 */
export async function scheduledPushes(
  o: Omit<PushRunOptions, "endBy">,
  endBy: number,
): Promise<PushReport | undefined> {
  try {
    const report = await runPushes({ ...o, endBy });
    for (const l of report.lines)
      console.log(`push: ${l.slug || "/"} ${l.edition} ${l.subscription}: ${l.outcome} (${l.detail})`);
    if (report.left) console.log(`push: ${report.left} copies left for the next run (the time was up)`);
    return report;
  } catch (error) {
    console.error(`push: the run failed (${String(error)}); the next one resumes it`);
    return undefined;
  }
}
