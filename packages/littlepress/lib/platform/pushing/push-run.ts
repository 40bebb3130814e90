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
// Once per subscription and edition: a claim (pushed/<id>/<edition>) created
// only if new, checked again before the POST, settled with one conditional
// replace after. A run that dies before the POST sends nothing, and its claim
// is taken over once stale; one that dies after the print key took the page
// but before that one write leaves a claim that a later run takes over: that
// copy prints twice (the deliveries' gap: a print key takes no request id).
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { eachAtMost } from "../../model/each-at-most.ts";
import type { EditionKey } from "../../model/edition-key.ts";
import { printerName } from "../../model/printer-name.ts";
import {
  firstPushClaim,
  pushEligible,
  pushOpen,
  reclaimPush,
  settlePush,
  type PushEntry,
  type PushRecord,
} from "../../model/push.ts";
import type { EditionShard } from "../../model/shard.ts";
import { siteDataDir } from "../../model/site-paths.ts";
import { claimable } from "../../model/retries.ts";
import type { PrintResult, Subscription } from "../../model/subscription.ts";
import { editionAnswer } from "../../edge/edition-answer.ts";
import { serveCopy } from "../../edge/edition-copy.ts";
import { openPublication, type PublishedPublication } from "../../edge/publication-store.ts";
import { siteIndexOf } from "../../edge/site-index.ts";
import type { PrintKeyPolicy } from "../printers/print-key-client.ts";
import { postToPrinter } from "../printers/print-key-post.ts";
import type { StateStore } from "../stores/state-store.ts";
import { pushedKey, pushKey } from "../stores/store-keys.ts";
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
  /** Prints in flight at once (default 16). */
  concurrency?: number;
  /** Per print-key request (default 5 s). */
  timeoutMs?: number;
  /** Whether the run may still start a print (its time budget); default: always. */
  inTime?: () => boolean;
}

/** One line of a push run's report. */
export interface PushLine {
  slug: string;
  edition: EditionKey;
  subscription: string;
  printer: string;
  /** "printed", "offline", "not-printed", "would print", "taken over", "error", … */
  outcome: string;
  detail: string;
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
}

/** A push edition found in the built site. */
interface FoundPush {
  slug: string;
  edition: EditionKey;
  built: string;
  pub: PublishedPublication;
  /** Its shard, read once per run before any copy is rendered (none: not in the built site). */
  shard?: EditionShard;
}

const PUSH_CONCURRENCY = 16;

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
  const report: PushReport = { pushes: [], lines: [], left: 0 };
  if (!wanted.length) return report;
  const root = siteIndexOf(o.site).root;
  // Read once, and only when a push still owes copies: a site whose pushes are all done reads none
  // (the scheduled run comes here every 15 minutes).
  let subs: Promise<Subscription[]> | undefined;
  const liveFor = async (slug: string) =>
    (await (subs ??= storedSubscriptions(o.store))).filter(
      (s) => (s.slug === slug || (s.slug === "" && root === slug)) && !s.ended,
    );
  for (const push of wanted) await runPush(o, push, liveFor, report);
  report.lines.sort((a, b) => a.slug.localeCompare(b.slug) || a.subscription.localeCompare(b.subscription));
  return report;
}

/** One push edition: a copy to every live subscription it owes one, then marked done when none is left open. */
async function runPush(
  o: PushRunOptions,
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
  let open = 0;
  await eachAtMost(o.concurrency ?? PUSH_CONCURRENCY, owed, async (sub) => {
    // The store failed under this copy: said in its line, and left open for the next run.
    const line = await pushOne(o, push, sub, name).catch((error: unknown): PushLine & { open: boolean } => ({
      ...lineOf(push, sub, "error", `the store failed: ${(error as Error).message}`),
      open: true,
    }));
    if (line.open) open++;
    if (line.outcome === "left") report.left++;
    else if (line.outcome !== "done") report.lines.push(strip(line));
  });
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

function lineOf(push: FoundPush, sub: Subscription, outcome: string, detail: string): PushLine {
  return {
    slug: push.slug,
    edition: push.edition,
    subscription: sub.id,
    printer: printerName(sub.printer),
    outcome,
    detail,
  };
}

/**
 * One subscription's copy of a push: claim, render, print, settle. Its line
 * says what happened ("done": settled before, nothing to say; "left": the
 * run's time was up), and `open` whether it may still print on a later run.
 */
async function pushOne(
  o: PushRunOptions,
  push: FoundPush,
  sub: Subscription,
  name: string,
): Promise<PushLine & { open: boolean }> {
  const key = pushedKey(sub.id, push.edition);
  const line = (outcome: string, detail: string, open: boolean) => ({ ...lineOf(push, sub, outcome, detail), open });
  const held = await o.store.get<PushRecord>(key);
  if (held && !claimable(held.value, o.at)) return line("done", held.value.detail, pushOpen(held.value));
  if (o.inTime && !o.inTime()) return line("left", "the run's time was up", true);
  const page = renderFor(push, sub);
  if (o.dryRun) {
    return "nothing" in page
      ? line("would not print", page.nothing, false)
      : line("would print", `would print on ${printerName(sub.printer)}`, true);
  }
  // The claim: a create, or a stale or retryable one taken over from the version read.
  let claimed: PushRecord;
  if (!held) {
    claimed = firstPushClaim(sub.id, push.slug, push.edition, o.at);
    if (!(await o.store.create(key, claimed))) return line("done", "another run claimed it", true);
  } else {
    claimed = reclaimPush(held.value, o.at);
    if (!(await o.store.replace(key, claimed, held.version))) return line("done", "another run claimed it", true);
  }
  // Still this run's claim just before the POST (a run so slow its claim went stale was taken over).
  const mine = await o.store.get<PushRecord>(key);
  const ours = mine && mine.value.state === "sending" && mine.value.at === claimed.at;
  if (!ours) return line("taken over", "another run took this copy over", true);
  const print: PrintResult | { nothing: string } = "nothing" in page ? page : await postToPrinter(o, sub, page, name);
  const settled = settlePush(claimed, print, "etag" in page ? page.etag : null, new Date(o.at.getTime()));
  if (!(await o.store.replace(key, settled, mine.version)))
    return line("taken over", `${settled.detail}; another run took this copy over`, true);
  return line(settled.state, settled.detail, pushOpen(settled));
}

/** The copy of the push edition built for the subscriber's settings, as /edition/ would answer it. */
function renderFor(
  push: FoundPush,
  sub: Subscription,
): { bytes: Uint8Array; type: string; etag: string } | { nothing: string } {
  const { shard } = push;
  if (!shard) return { nothing: `edition ${push.edition} is not in the built site` };
  const decision = serveCopy(push.pub, shard, push.edition, new URLSearchParams(sub.settings));
  const answer = editionAnswer(push.pub, decision, "GET");
  if (answer.status !== 200 || !answer.body)
    return { nothing: decision.status === 200 ? "nothing to print" : decision.reason };
  return {
    bytes: answer.body,
    type: answer.headers["Content-Type"] ?? "text/html; charset=utf-8",
    etag: answer.headers.ETag ?? "",
  };
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
 * function's budget (no print starts later than `startBy` on
 * performance.now()'s clock), logging a line per copy. Never throws: what
 * fails is left to the next run, which does it again; the report, or
 * undefined when the run failed.
 */
export async function scheduledPushes(
  o: Omit<PushRunOptions, "inTime">,
  startBy: number,
): Promise<PushReport | undefined> {
  try {
    const report = await runPushes({ ...o, inTime: () => performance.now() < startBy });
    for (const l of report.lines)
      console.log(`push: ${l.slug || "/"} ${l.edition} ${l.subscription}: ${l.outcome} (${l.detail})`);
    if (report.left) console.log(`push: ${report.left} copies left for the next run (the time was up)`);
    return report;
  } catch (error) {
    console.error(`push: the run failed (${String(error)}); the next one resumes it`);
    return undefined;
  }
}
