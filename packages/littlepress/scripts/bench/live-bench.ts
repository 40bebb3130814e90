// Save to served under `npm start`: a publication of 1,000 editions is served
// by scripts/start.ts in a child process; one edition file is saved again and
// again, and each time the edition is asked for until its new ETag is served.
// The time runs from the write to that answer: the watcher, the rebuild (only
// that edition rendered), the repacking, and the request.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawnStart } from "../start.ts";
import { generateSite, random, SERIAL, splitEditions } from "./generate.ts";
import { median, progress } from "./util.ts";

export interface LiveRow {
  /** Editions in the publication whose edition was saved. */
  editions: number;
  saves: number;
  /** From the write to the first answer with the new ETag, ms. */
  medianMs: number;
  maxMs: number;
  /** From saving publication.json (all its editions rendered again) to its new meta.json, ms. */
  publicationMs: number;
}

/** How long one save may take to show before the run gives up on it. */
const GIVE_UP_MS = 20_000;

export async function benchLive(work: string, saves: number, editions = 1_000): Promise<LiveRow> {
  const content = path.join(work, "content-live");
  generateSite(content, totalForSerial(editions));
  const server = await spawnStart({ content, output: path.join(work, "site-live") });
  const rng = random(7);
  try {
    const times: number[] = [];
    for (let i = 0; i < saves; i++) {
      const n = Math.floor(rng() * editions);
      const file = path.join(content, SERIAL, "editions", `${n}.md`);
      const save = () => writeFileSync(file, readFileSync(file, "utf8") + `\nSaved again (${i}).\n`);
      times.push(await timeSave(save, () => answer(`${server.url}/${SERIAL}/edition/?delivery_count=${n}`, "etag")));
    }
    const json = path.join(content, SERIAL, "publication.json");
    const renamed = () =>
      writeFileSync(json, readFileSync(json, "utf8").replace(/"name": "([^"]*)"/, '"name": "$1 (renamed)"'));
    const publicationMs = await timeSave(renamed, () => answer(`${server.url}/${SERIAL}/meta.json`));
    progress(`live: ${saves} saves, median ${median(times).toFixed(0)} ms`);
    return { editions, saves, medianMs: median(times), maxMs: Math.max(...times), publicationMs };
  } finally {
    await server.stop();
  }
}

/** Ms from `save()` to the first time `read()` gives something else than before it. */
async function timeSave(save: () => void, read: () => Promise<string>): Promise<number> {
  const before = await read();
  const t0 = performance.now();
  save();
  while ((await read()) === before) {
    if (performance.now() - t0 > GIVE_UP_MS) throw new Error(`a save did not show in ${GIVE_UP_MS} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
  return performance.now() - t0;
}

/** An answer's header, or its body. */
async function answer(url: string, header?: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  return header ? (res.headers.get(header) ?? "") : res.text();
}

/** The synthetic site's size whose serial publication has exactly `editions` editions. */
function totalForSerial(editions: number): number {
  for (let total = editions; ; total++) if (splitEditions(total).serial >= editions) return total;
}
