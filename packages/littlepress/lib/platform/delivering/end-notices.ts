// Sends a subscription's end notice (lib/model/end-notice.ts): the one slip
// that tells a subscriber the series is over and where to subscribe again.
// A delivery run calls it right after a 410 ends a subscription, and on every
// later run for an ended subscription whose notice is still to do (a crash, an
// offline printer). The slip goes through the same print-key client, with the
// same allow-list and checks, as every delivery (deliver-one.ts's post).
//
// Exactly once, as far as a print key allows: the notice is claimed with a
// conditional replace of the subscription (only the run whose write lands
// sends), and settled with another once the print key answered. A run that
// dies between the print key accepting the slip and that one write leaves a
// claim that a later run takes over once stale (STALE_CLAIM_MS): that slip
// prints twice. Anywhere else, a run that dies sends nothing twice, and the
// slip still goes, once, with a later run.
import {
  claimNotice,
  endNoticePage,
  gaveUpNotice,
  noticeNext,
  offNotice,
  settleNotice,
  type EndNotice,
} from "../../model/end-notice.ts";
import type { PrintResult, Subscription } from "../../model/subscription.ts";
import { siteIndexOf } from "../../edge/site-index.ts";
import type { StateStore, Stored } from "../stores/state-store.ts";
import { subscriptionKey } from "../stores/store-keys.ts";
import { postToPrinter } from "../printers/print-key-post.ts";
import { noticeLine } from "./report-lines.ts";
import type { Run } from "./run.ts";

/** What sending a notice needs of its run. */
export interface NoticeWork {
  store: StateStore;
  /** The run's instant. */
  at: Date;
  /** Only say what would be done. */
  dryRun?: boolean;
  /** Whether the publication `slug` prints the slip (its publication.json's `end_notice`). */
  on(slug: string): boolean;
  /** The publication's subscribe page, as people reach it. */
  subscribeUrl(slug: string): string;
  /** The publication's name (its meta.json's), or why it could not be read. */
  name(slug: string): Promise<string | { error: string }>;
  /** POSTs a page to the subscription's print key, from `from`, as a delivery's edition is POSTed. */
  post(sub: Subscription, page: { bytes: ArrayBuffer; type: string }, from: string): Promise<PrintResult>;
}

/** What became of a notice: its outcome ("printed", "offline", "off", "taken over", "would print", …) and why. */
export interface NoticeOutcome {
  sub: Subscription;
  outcome: string;
  detail: string;
}

/** Writes to a subscription at most this many times in a row when other writers keep changing it. */
const WRITE_TRIES = 5;

/**
 * Does what the end notice of the subscription `id` needs at the run's
 * instant, if anything: gives it up, marks it off, or claims, prints and
 * settles it. Undefined when there was nothing to do, or another run is doing
 * it. Throws when the store fails (a claim left behind goes stale for a later run).
 */
export async function sendEndNotice(w: NoticeWork, id: string): Promise<NoticeOutcome | undefined> {
  const key = subscriptionKey(id);
  const read = await w.store.get<Subscription>(key);
  const sub = read?.value;
  const notice = sub?.endNotice;
  if (!read || !sub?.ended || !notice) return undefined;
  const next = noticeNext(notice, w.at);
  if (next === "leave") return undefined;
  const on = w.on(sub.slug);
  if (w.dryRun) {
    if (next === "claim" && on) return { sub, outcome: "would print", detail: "would print the end slip" };
    return { sub, outcome: "would not print", detail: on ? "its tries are spent" : "turned off (end_notice)" };
  }
  const replace = (value: Subscription, n: EndNotice, version: string) =>
    w.store.replace(key, { ...value, endNotice: n }, version);
  if (next === "give-up" || !on) {
    const settled = next === "give-up" ? gaveUpNotice(notice, w.at) : offNotice(notice, w.at);
    return (await replace(sub, settled, read.version))
      ? { sub, outcome: settled.state, detail: settled.detail }
      : undefined;
  }
  const claimed = claimNotice(notice, w.at);
  if (!(await replace(sub, claimed, read.version))) return undefined; // another run was first
  // The claim read back (it is still this run's), and the copy the print goes out with.
  const held = await heldClaim(w.store, key, claimed);
  if (!held) return { sub, outcome: "taken over", detail: "another run took this end slip over" };
  const name = await w.name(sub.slug);
  const print: PrintResult =
    typeof name === "string"
      ? await w.post(held.value, slipPage(name, w.subscribeUrl(sub.slug)), name)
      : { error: name.error };
  const settled = settleNotice(claimed, print, w.at);
  // Settled on the latest copy while the claim on it is still this run's (another writer may have
  // changed something else meanwhile): one write, the crash window above.
  let latest: Stored<Subscription> | undefined = held;
  for (let tries = 0; latest && tries < WRITE_TRIES; tries++) {
    if (await replace(latest.value, settled, latest.version))
      return { sub: latest.value, outcome: settled.state, detail: settled.detail };
    latest = await heldClaim(w.store, key, claimed);
  }
  return { sub, outcome: "taken over", detail: `${settled.detail}; another run took this end slip over` };
}

/**
 * Works on an ended subscription's end notice for a delivery run, and adds its
 * line to the run's; a store that fails is said in the line (the next runs do it again).
 */
export async function workOnEndNotice(run: Run, sub: Subscription): Promise<void> {
  try {
    const done = await sendEndNotice(noticeWork(run), sub.id);
    if (done) run.notices.push(noticeLine(done.sub, run.o.at, done.outcome, done.detail));
  } catch (error) {
    run.notices.push(noticeLine(sub, run.o.at, "error", `the store failed: ${(error as Error).message}`));
  }
}

/** What sending end notices needs of a run: its store and clock, meta.json's name, its print-key POST. */
function noticeWork(run: Run): NoticeWork {
  const { o, cache, posts } = run;
  return {
    store: o.store,
    at: o.at,
    dryRun: o.dryRun,
    on: (slug) => o.endNotice?.(slug) ?? true,
    subscribeUrl: (slug) => new URL(slug ? `/${slug}/subscribe/` : "/subscribe/", o.publicOrigin ?? o.origin).href,
    name: async (slug) => {
      const meta = await cache.metaOf(slug);
      return "error" in meta ? { error: meta.error } : meta.name;
    },
    post: (sub, page, from) => posts(() => postToPrinter(o, sub, page, from)),
  };
}

/** The subscription while its notice is still the claim `claimed` (this run's), else undefined. */
async function heldClaim(
  store: StateStore,
  key: string,
  claimed: EndNotice,
): Promise<Stored<Subscription> | undefined> {
  const held = await store.get<Subscription>(key);
  const n = held?.value.endNotice;
  const ours = n && n.state === "sending" && n.at === claimed.at && n.attempts === claimed.attempts;
  return ours ? held : undefined;
}

/** The slip as the print key takes it: HTML in UTF-8. */
function slipPage(name: string, subscribeUrl: string): { bytes: ArrayBuffer; type: string } {
  const bytes = new TextEncoder().encode(endNoticePage(name, subscribeUrl));
  return {
    bytes: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    type: "text/html; charset=utf-8",
  };
}

/**
 * Whether each publication of a built site prints the end slip: all do but
 * those whose publication.json says `"end_notice": false` (the site index's
 * noEndNotice); "" is the publication at the site root.
 */
export function endNoticesOf(site: string): (slug: string) => boolean {
  return (slug) => {
    const index = siteIndexOf(site);
    const name = slug || index.root || "";
    return !(index.noEndNotice ?? []).includes(name);
  };
}
