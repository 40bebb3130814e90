// The delivery bench's workload and its limit: n subscriptions to the
// synthetic site's three publications, in six zones, every one due at the same
// instant, each with a printer of its own on the fake print-key server; and
// the plain loop POSTing the same pages that a run is measured against; and
// the process's memory while it runs.
import { wallClock } from "../../lib/model/time-zones.ts";
import type { StateStore } from "../../lib/platform/stores/state-store.ts";
import { createSubscription } from "../../lib/platform/subscribing/subscription-records.ts";
import type { FakePrintKeys } from "../../test/helpers/print-keys.ts";
import { DELIVERY_CONCURRENCY } from "../../lib/platform/delivering/run.ts";
import { CHOICES, DAILY, LANGS, SERIAL } from "./generate.ts";

const ZONES = ["Europe/London", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "Etc/GMT+12", "Europe/Paris"];

/** The print key of the bench's subscriber `i`. */
export const benchKey = (i: number) => `bench${i}`;

/**
 * `n` subscriptions spread over the three publications and six zones (a third
 * of them with a text setting of their own), each due at the returned instant.
 */
export async function subscribeMany(
  store: StateStore,
  sealKey: Buffer,
  sirius: FakePrintKeys,
  n: number,
): Promise<Date> {
  const created = new Date(Date.now() - 3 * 86_400_000);
  // Five minutes into this UTC hour: every subscription's hour has just begun on its clock (whole-hour zones).
  const at = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 5 * 60_000);
  const slugs = [SERIAL, DAILY, CHOICES];
  const one = async (i: number) => {
    sirius.printers.set(benchKey(i), { name: `Printer ${i}`, owner: "bench", online: true });
    const zone = ZONES[i % ZONES.length]!;
    // the hour that has just begun in the zone, so every subscription is due now
    const hour = wallClock(zone, at.getTime()).hour;
    const slug = slugs[i % slugs.length]!;
    const settings: [string, string][] =
      slug === CHOICES
        ? [
            ["lang", LANGS[i % LANGS.length]!],
            ["name", `Reader ${i}`],
          ]
        : [];
    await createSubscription(store, sealKey, {
      slug,
      printKey: new URL(sirius.keyUrl(benchKey(i))),
      printer: `Printer ${i}`,
      zone,
      hour,
      settings,
      at: created,
    });
  };
  for (let i = 0; i < n; i += 200)
    await Promise.all(Array.from({ length: Math.min(200, n - i) }, (_, k) => one(i + k)));
  return at;
}

/** The limit: `count` POSTs of `bodies` (in turn) to `url` by a plain loop, DELIVERY_CONCURRENCY at once; ms. */
export async function plainPosts(url: string, bodies: string[], count: number): Promise<number> {
  const start = performance.now();
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      const body = bodies[sent++ % bodies.length]!;
      const res = await fetch(`${url}?from=bench`, {
        method: "POST",
        headers: { "Content-Type": "text/html; charset=utf-8" },
        body,
      });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: DELIVERY_CONCURRENCY }, worker));
  return performance.now() - start;
}

/** This process's resident memory, MiB. */
export const rssMiB = () => process.memoryUsage.rss() / 2 ** 20;

/** This process's resident memory, sampled every 25 ms while `work` runs: its peak, MiB. */
export async function peakRss<R>(work: () => Promise<R>): Promise<{ result: R; peakMiB: number }> {
  let peak = rssMiB();
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB())), 25);
  try {
    const result = await work();
    return { result, peakMiB: Math.max(peak, rssMiB()) };
  } finally {
    clearInterval(timer);
  }
}
