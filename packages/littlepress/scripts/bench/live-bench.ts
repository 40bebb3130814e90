// Save to served under `npm start`, as a site runs it: a copy of the starter as
// `littlepress new` makes it (its .eleventy.js, its example publications, and
// its own functions/*.mts, which plain Node loads through tsx), with a
// publication of 1,000 editions beside the examples, served by the compiled
// `littlepress start` in a child process. (The kit's own project has no
// functions/ and is served the package's compiled ones, in the server's module
// instances: there a save showed in 107 ms while on the starter it waited for
// the functions' once-a-second check.) One edition file is saved again and
// again, by a plain write or as an editor saves (a new file renamed over it),
// and each time the edition is asked for until its new ETag is served. It is
// asked as a page open on the desk learns of a save: at npm start's live-reload
// notice of the next build, then again every 2 ms until the new ETag comes (a
// function still serving the old build would show there). Asked every 2 ms
// from the save on, the server answered some 60 requests during each rebuild,
// on the thread that rebuilds: a fifth of its time, which no author's page adds.
// The time runs from the write to that answer: the watcher, the rebuild (only
// that edition rendered), the repacking, and the request. The rebuild's own
// time, as npm start logs it, is kept beside it.
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { starterFile } from "../new.ts";
import { LIVE_EVENTS } from "../../lib/server/live-reload.ts";
import { spawnStart, type StartedProcess } from "../start.ts";
import { generateSite, random, SERIAL, splitEditions } from "./generate.ts";
import { compiledBin, compiledKit, median, progress, ROOT } from "./util.ts";

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
  /** The earlier kit's times (--before), measured save for save in turn with these. */
  before?: { write: SaveTimes; rename: SaveTimes };
}

export interface SaveTimes {
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  /** The median of the rebuilds' own times, as npm start logs them (to 10 ms): the floor of medianMs. */
  rebuildMs: number;
  /**
   * The median of the server's CPU time from the save to the answer, all its threads (Linux's
   * /proc/<pid>/task/<tid>/schedstat): on a shared machine, the figure the others' load moves least.
   */
  cpuMs: number;
}

/** How long one save may take to show before the run gives up on it. */
const GIVE_UP_MS = 20_000;

/** The littlepress repository's root: the starter a new site is made from. */
const STARTER = path.resolve(ROOT, "..", "..");

/** A copy of the starter in `work`, as `littlepress new` copies it; its path. */
function starterCopy(work: string): string {
  const project = path.join(work, "starter");
  for (const entry of readdirSync(STARTER).filter((e) => starterFile(e)))
    cpSync(path.join(STARTER, entry), path.join(project, entry), { recursive: true });
  return project;
}

/** Where a kit's save times were measured: npm start on its own copy of the starter. */
interface Side {
  project: string;
  content: string;
  server: StartedProcess;
  /** The builds npm start announces on its live-reload channel, which open pages listen to. */
  builds: BuildNotices;
  times: Record<SaveKind, number[]>;
  rebuilds: Record<SaveKind, number[]>;
  cpu: Record<SaveKind, number[]>;
}

type SaveKind = "write" | "rename";

/**
 * Times `saves` saves of each kind in a publication of `editions` editions, on
 * a copy of the starter in `work`. With `before` (the folder of an earlier
 * kit, checked out by tree.ts), that kit's `littlepress start` is timed too,
 * on a copy of its own, save for save in turn with this one: both under the
 * same load, which on a shared machine varies more than what is measured.
 */
export async function benchLive(work: string, saves: number, editions = 1_000, before?: string): Promise<LiveRow> {
  const kits = [{ name: "after", kit: ROOT }, ...(before ? [{ name: "before", kit: before }] : [])];
  const sides: Side[] = [];
  try {
    for (const { name, kit } of kits) sides.push(await startSide(path.join(work, name), kit, editions));
    const rng = random(7);
    // The two kinds of save alternate, each on an edition picked at random, on each side in turn.
    for (let i = 0; i < 2 * saves; i++) {
      const n = Math.floor(rng() * editions);
      const kind = i % 2 ? "rename" : "write";
      for (const side of sides) await timeOneSave(side, n, i, kind);
    }
    const publicationMs = await timePublicationSave(sides[0]!);
    const [after, earlier] = sides.map((side) => ({
      write: saveTimes(side.times.write, side.rebuilds.write, side.cpu.write),
      rename: saveTimes(side.times.rename, side.rebuilds.rename, side.cpu.rename),
    }));
    const { write, rename } = after!;
    const said = (t: { write: SaveTimes; rename: SaveTimes }) =>
      `median ${t.write.medianMs.toFixed(0)} and ${t.rename.medianMs.toFixed(0)} ms ` +
      `(the rebuilds ${t.write.rebuildMs.toFixed(0)} and ${t.rename.rebuildMs.toFixed(0)} ms, ` +
      `the server's CPU ${t.write.cpuMs.toFixed(0)} and ${t.rename.cpuMs.toFixed(0)} ms)`;
    progress(`live: ${saves} saves of each kind, ${said(after!)}${earlier ? `; before: ${said(earlier)}` : ""}`);
    return { editions, saves, write, rename, publicationMs, ...(earlier && { before: earlier }) };
  } finally {
    for (const side of sides) {
      side.builds.close();
      await side.server.stop();
    }
  }
}

/** A copy of the starter in `folder` with the publication of `editions` editions, served by `kit`'s npm start. */
async function startSide(folder: string, kit: string, editions: number): Promise<Side> {
  const project = starterCopy(folder);
  const content = path.join(project, "content");
  generateSite(content, totalForSerial(editions));
  // The starter's functions/*.mts import the installed littlepress: an earlier kit's is its own.
  if (kit !== ROOT) {
    mkdirSync(path.join(project, "node_modules"), { recursive: true });
    symlinkSync(kit, path.join(project, "node_modules", "littlepress"), "dir");
  }
  const bin = { file: kit === ROOT ? compiledBin() : compiledKit(kit), cwd: project };
  const server = await spawnStart({ content: "content", output: "_site", bin });
  const builds = await BuildNotices.listen(server.url);
  const none = () => ({ write: [], rename: [] });
  return { project, content, server, builds, times: none(), rebuilds: none(), cpu: none() };
}

/** Saves edition `n` (the `i`th save) and times it until its new ETag is served, with the rebuild's own time. */
async function timeOneSave(side: Side, n: number, i: number, kind: SaveKind): Promise<void> {
  const { server, content, builds } = side;
  const save = saveOf(path.join(content, SERIAL, "editions", `${n}.md`), i, kind);
  const logged = server.log.length;
  const etag = () => answer(`${server.url}/${SERIAL}/edition/?delivery_count=${n}`, "etag");
  const cpu = cpuMs(server.pid);
  side.times[kind].push(await timeSave(save, etag, builds));
  side.cpu[kind].push(cpuMs(server.pid) - cpu);
  side.rebuilds[kind].push(await rebuildTime(server, logged));
}

/** From saving publication.json (every edition rendered again) to its new meta.json, ms. */
function timePublicationSave({ server, content, builds }: Side): Promise<number> {
  const json = path.join(content, SERIAL, "publication.json");
  const renamed = () =>
    writeFileSync(json, readFileSync(json, "utf8").replace(/"name": "([^"]*)"/, '"name": "$1 (renamed)"'));
  return timeSave(renamed, () => answer(`${server.url}/${SERIAL}/meta.json`), builds);
}

/** The `i`th save of `file`: a line added, written in place, or written beside it and renamed over it. */
function saveOf(file: string, i: number, kind: SaveKind): () => void {
  const text = () => readFileSync(file, "utf8") + `\nSaved again (${i}).\n`;
  const scratch = path.join(path.dirname(file), `sed${String(i).padStart(6, "0")}`);
  return kind === "write"
    ? () => writeFileSync(file, text())
    : () => (writeFileSync(scratch, text()), renameSync(scratch, file));
}

/** The time of the rebuild npm start logged after `from` ("… changed: rebuilt _site/ in 0.12 s"), ms. */
async function rebuildTime(server: StartedProcess, from: number): Promise<number> {
  const deadline = performance.now() + GIVE_UP_MS;
  for (;;) {
    const seconds = / changed: rebuilt .* in ([\d.]+) s/.exec(server.log.slice(from))?.[1];
    if (seconds) return Number(seconds) * 1000;
    if (performance.now() > deadline) throw new Error(`npm start logged no rebuild:\n${server.log.slice(from)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const saveTimes = (times: number[], rebuilds: number[], cpu: number[]): SaveTimes => ({
  medianMs: median(times),
  p95Ms: percentile(times, 0.95),
  maxMs: Math.max(...times),
  rebuildMs: median(rebuilds),
  cpuMs: median(cpu),
});

/** The CPU time a process has had so far, ms: the sum over its threads (a thread that ended is not counted). */
function cpuMs(pid: number): number {
  const tasks = `/proc/${pid}/task`;
  let ns = 0;
  for (const tid of readdirSync(tasks)) {
    // A thread may end between the listing and the read.
    const stat = (() => {
      try {
        return readFileSync(path.join(tasks, tid, "schedstat"), "utf8");
      } catch {
        return "0";
      }
    })();
    ns += Number(stat.split(" ")[0]);
  }
  return ns / 1e6;
}

/** The value under which a share `p` of the times fall (nearest rank). */
function percentile(times: number[], p: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** Ms from `save()` to the first time `read()` gives something else than before it, asked from the next build on. */
async function timeSave(save: () => void, read: () => Promise<string>, builds: BuildNotices): Promise<number> {
  const before = await read();
  const built = builds.next();
  const t0 = performance.now();
  save();
  await built;
  while ((await read()) === before) {
    if (performance.now() - t0 > GIVE_UP_MS) throw new Error(`a save did not show in ${GIVE_UP_MS} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
  return performance.now() - t0;
}

/** npm start's live-reload channel, read as an open page reads it: its `build` events. */
class BuildNotices {
  private waiting: (() => void)[] = [];
  private constructor(private readonly stream: AbortController) {}

  static async listen(url: string): Promise<BuildNotices> {
    const stream = new AbortController();
    const res = await fetch(`${url}${LIVE_EVENTS}`, { signal: stream.signal });
    const notices = new BuildNotices(stream);
    const now = notices.next(); // the channel says the build served now as a page connects
    void notices.read(res.body!.pipeThrough(new TextDecoderStream()).getReader());
    await now;
    return notices;
  }

  /** Settles at the next build announced (a failed one too: the read after it tells), or after GIVE_UP_MS. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, GIVE_UP_MS);
      this.waiting.push(() => (clearTimeout(timer), resolve()));
    });
  }

  close(): void {
    this.stream.abort();
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  private async read(reader: ReadableStreamDefaultReader<string>): Promise<void> {
    let text = "";
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        const events = (text + chunk.value).split("\n\n");
        text = events.pop()!;
        if (events.some((e) => /^event: build$/m.test(e))) for (const resolve of this.waiting.splice(0)) resolve();
      }
    } catch {
      // Closed: the run is over, or npm start stopped, and nothing more is announced.
    }
  }
}

/** An answer's header, or its body. */
async function answer(url: string, header?: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(GIVE_UP_MS) });
  return header ? (res.headers.get(header) ?? "") : res.text();
}

/** The synthetic site's size whose serial publication has exactly `editions` editions. */
function totalForSerial(editions: number): number {
  for (let total = editions; ; total++) if (splitEditions(total).serial >= editions) return total;
}
