// Save to served under `npm start`: a publication of 1,000 editions is served
// by the compiled `littlepress start` in a child process, in the project
// prepareBuildTools made (its .eleventy.js adds the plugin, as a site's does).
// One edition file is saved again and again, by a plain write or as an editor
// saves (a new file renamed over it), and each time the edition is asked for
// until its new ETag is served.
// The time runs from the write to that answer: the watcher, the rebuild (only
// that edition rendered), the repacking, and the request.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawnStart } from "../start.ts";
import { generateSite, random, SERIAL, splitEditions } from "./generate.ts";
import { compiledBin, median, progress } from "./util.ts";

export interface LiveRow {
  /** Editions in the publication whose edition was saved. */
  editions: number;
  /** Saves of each kind. */
  saves: number;
  /** From the write to the first answer with the new ETag, ms: a plain write of the file. */
  write: SaveTimes;
  /** The same for an editor's save: a new file beside it renamed over it (sed -i, Vim, JetBrains...). */
  rename: SaveTimes;
  /** From saving publication.json (all its editions rendered again) to its new meta.json, ms. */
  publicationMs: number;
}

export interface SaveTimes {
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

/** How long one save may take to show before the run gives up on it. */
const GIVE_UP_MS = 20_000;

/** `work` is a project prepareBuildTools made. */
export async function benchLive(work: string, saves: number, editions = 1_000): Promise<LiveRow> {
  const content = path.join(work, "content-live");
  generateSite(content, totalForSerial(editions));
  const bin = { file: compiledBin(), cwd: work };
  const server = await spawnStart({ content: path.relative(work, content), output: "site-live", bin });
  const rng = random(7);
  try {
    const times = { write: [] as number[], rename: [] as number[] };
    // The two kinds of save alternate, each on an edition picked at random.
    for (let i = 0; i < 2 * saves; i++) {
      const n = Math.floor(rng() * editions);
      const file = path.join(content, SERIAL, "editions", `${n}.md`);
      const text = () => readFileSync(file, "utf8") + `\nSaved again (${i}).\n`;
      const kind = i % 2 ? "rename" : "write";
      const scratch = path.join(path.dirname(file), `sed${String(i).padStart(6, "0")}`);
      const save =
        kind === "write"
          ? () => writeFileSync(file, text())
          : () => (writeFileSync(scratch, text()), renameSync(scratch, file));
      times[kind].push(
        await timeSave(save, () => answer(`${server.url}/${SERIAL}/edition/?delivery_count=${n}`, "etag")),
      );
    }
    const json = path.join(content, SERIAL, "publication.json");
    const renamed = () =>
      writeFileSync(json, readFileSync(json, "utf8").replace(/"name": "([^"]*)"/, '"name": "$1 (renamed)"'));
    const publicationMs = await timeSave(renamed, () => answer(`${server.url}/${SERIAL}/meta.json`));
    const write = saveTimes(times.write);
    const rename = saveTimes(times.rename);
    progress(
      `live: ${saves} saves of each kind, median ${write.medianMs.toFixed(0)} and ${rename.medianMs.toFixed(0)} ms`,
    );
    return { editions, saves, write, rename, publicationMs };
  } finally {
    await server.stop();
  }
}

const saveTimes = (times: number[]): SaveTimes => ({
  medianMs: median(times),
  p95Ms: percentile(times, 0.95),
  maxMs: Math.max(...times),
});

/** The value under which a share `p` of the times fall (nearest rank). */
function percentile(times: number[], p: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
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
