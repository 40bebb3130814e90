// The live half of `npm start`: watches the content and the layouts, rebuilds
// in this process when they change (only the pages whose inputs changed are
// rendered again), and tells open pages to reload or to show what went wrong.
// A broken save never replaces the last good build.
import { existsSync } from "node:fs";
import path from "node:path";
import { subscribe, type AsyncSubscription, type SubscribeCallback } from "@parcel/watcher";
import { build, describeBuildError, eleventyForget } from "./build.ts";
import { FolderWatch } from "./folder-watch.ts";
import { RenderMemory } from "./render-memory.ts";
import { versionOf } from "./site.ts";
import { isDataFile, TEMPLATE_FILE } from "./data-editions.ts";

/** What open pages are told after each build: which build they should show, and what is wrong with the latest save. */
export interface LiveState {
  /** Changes with every good build; a page showing another one reloads. */
  build: number;
  /** Why the latest build failed (the last good one is still served); undefined when it succeeded. */
  problem?: string;
}

export interface LiveOptions {
  /** The publications' folder; none: the project built by its own Eleventy config (a blog's posts). */
  content?: string;
  output: string;
  /** Folders whose changes rebuild the site (content/ and layouts/; a blog, the project itself). */
  watch: string[];
  /** Where progress and problems are written (the terminal). */
  log?: (line: string) => void;
}

/** A site kept up to date with its sources while `npm start` runs. */
export class LiveSite {
  state: LiveState = { build: 0 };
  /** Pages of earlier builds: a save re-renders only what it changed. */
  private readonly memory = new RenderMemory();
  private readonly listeners = new Set<(state: LiveState) => void>();
  private watchers: AsyncSubscription[] = [];
  private folders: FolderWatch | undefined;
  private changed = new Set<string>();
  /** Each changed file's version as the build that took it in began (a late echo of that save is not built again). */
  private readonly taken = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: LiveOptions) {}

  /** Where the site is served: image URLs point there unless content/site.json names the site's address. */
  private url: string | undefined;

  /** Builds once, then watches. A failed first build is reported like any other; the server goes on. */
  async start(url?: string): Promise<void> {
    this.url = url;
    await this.rebuild([]);
    // @parcel/watcher (native: inotify, FSEvents...) reports the files that changed, and nothing
    // else: chokidar read a folder again on every change in it, 1,000 lstat calls for a save
    // beside 1,000 editions, on the thread that rebuilds. (Node 20's own recursive watch on Linux
    // loses a file an editor saves by renaming over it.) A folder that is not there is not watched.
    const built = builtFolders(this.options.output);
    const heard = (file: string) => {
      if (isEditorScratch(file) || built(file)) return;
      this.touched(file);
      folders.heard(file); // a folder made since: watched now, and the files already in it built
    };
    const folders = (this.folders = new FolderWatch(built, heard));
    for (const folder of this.options.watch.filter((f) => existsSync(f))) {
      const root = path.resolve(folder);
      // Never even walked: installed packages, git, the builds (a blog watches its whole project).
      const ignore = built.folders.filter((f) => f.startsWith(root + path.sep));
      const watcher = await watchTree(root, ignore, (error, events) => {
        if (error) return this.log(`littlepress: watching failed: ${String(error)}`);
        for (const { path: file } of events) heard(file);
      });
      if (watcher) this.watchers.push(watcher);
      else this.log(`littlepress: cannot watch ${folder}/: a save there is not rebuilt until npm start restarts`);
      folders.watch(root);
    }
  }

  /** Calls `listener` with the state now and after every build, until the returned function is called. */
  subscribe(listener: (state: LiveState) => void): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.listeners.clear();
    await Promise.all(this.watchers.map((w) => w.unsubscribe()));
    this.folders?.close();
    this.watchers = [];
    await this.running;
    await this.memory.oldBuild;
  }

  private touched(file: string) {
    this.changed.add(file);
    // An editor's save is several events (write, rename, chmod): one build for them all.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.next();
    }, SETTLE_MS);
  }

  /** Runs one build at a time; changes seen during a build are built right after it. */
  private async next(): Promise<void> {
    if (this.running) return;
    while (this.changed.size) {
      // One save can reach the watcher as two batches further apart than its 50 ms (a write the machine
      // paused halfway): the second names a file already built as it is now, and is dropped.
      const fresh = [...this.changed]
        .map((f) => [f, versionOf(f)] as const)
        .filter(([f, v]) => this.taken.get(f) !== v);
      this.changed = new Set();
      if (!fresh.length) continue;
      for (const [file, version] of fresh) this.taken.set(file, version);
      const files = fresh.map(([file]) => file);
      this.running = this.rebuild(files);
      await this.running;
      this.running = undefined;
    }
  }

  private async rebuild(files: string[]): Promise<void> {
    const { content, output } = this.options;
    if (files.some((f) => content === undefined || !keepsMemory(content, f))) this.memory.clear();
    await eleventyForget(files);
    const started = performance.now();
    try {
      const url = this.url ? { url: this.url } : {};
      await build({ ...(content !== undefined && { content }), output, memory: this.memory, ...url });
    } catch (error) {
      const problem = describeBuildError(error);
      // One save can reach the watcher as two changes further apart than SETTLE_MS (an editor that writes
      // the file twice, formatting on save): each is a build, and the same problem is not printed twice.
      const again = problem === this.state.problem;
      this.state = { build: this.state.build, problem };
      this.log(
        again
          ? `littlepress: ${describeFiles(files)} changed: the build still fails with the problem above`
          : `${problem}\nlittlepress: still serving the last good build; fix the file and save again`,
      );
      return this.tell();
    }
    this.state = { build: this.state.build + 1 };
    const what = files.length ? `${describeFiles(files)} changed: rebuilt` : "built";
    this.log(`littlepress: ${what} ${output}/ in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    this.tell();
  }

  private tell() {
    for (const listener of this.listeners) listener(this.state);
  }

  private log(line: string) {
    (this.options.log ?? console.log)(line);
  }
}

/**
 * Parcel's watch of a folder and all under it, or undefined. Its walk of the
 * tree fails ("No such file or directory") when a folder goes while it is
 * read, as a tool's scratch folders do in a watched project: tried again, and
 * never taking the server down with it.
 */
async function watchTree(
  root: string,
  ignore: string[],
  listener: SubscribeCallback,
): Promise<AsyncSubscription | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await subscribe(root, listener, { ignore });
    } catch {
      // A folder went during the walk: walk again.
    }
  }
  return undefined;
}

/**
 * What a watch of the whole project (a blog's) must not react to: the builds'
 * own output, installed packages, git, caches, previews; and `folders`, the
 * ones among them the watcher need not walk (the builds' usual names).
 */
function builtFolders(output: string): ((file: string) => boolean) & { folders: string[] } {
  const site = path.resolve(output);
  const builds = ["", ".next", ".old", "_data", "_data.next", "_data.old"].map((end) => site + end);
  const others = ["node_modules", ".git", ".cache", ".netlify", ".littlepress", "preview"].map((f) => path.resolve(f));
  const folders = [...builds, ...others];
  const built = (file: string) => {
    const absolute = path.resolve(file);
    if (absolute.startsWith(site) && /^(?:\.[\w-]+|_data(?:\.[\w-]+)?)?(?:[/\\]|$)/.test(absolute.slice(site.length)))
      return true;
    return others.some((f) => absolute === f || absolute.startsWith(f + path.sep));
  };
  return Object.assign(built, { folders });
}

/**
 * The files an editor or a tool writes on the way to a save, and removes or
 * renames over the real file: Vim's swap files and its 4913 probe, backups
 * (`~`), Emacs's locks and autosaves, `sed -i`'s sedXXXXXX, JetBrains' and
 * GNOME's temporaries, Kate's and Chrome's swaps, and `.tmp` files. The save
 * itself (the rename onto the real name) is one rebuild, naming that file.
 */
function isEditorScratch(file: string): boolean {
  return SCRATCH.test(path.basename(file));
}
const SCRATCH = new RegExp(
  [
    ...[/^\.[^/]*\.sw[a-p]$/, /~$/, /^4913$/, /^\.#/, /^#.*#$/, /^sed[A-Za-z0-9]{6}$/, /___jb_(?:tmp|old)___$/],
    ...[/^\.goutputstream-/, /\.kate-swp$/, /\.crswap$/, /\.tmp$/i],
  ]
    .map((r) => r.source)
    .join("|"),
);

/**
 * How long a burst of file events must be quiet before the build starts. The
 * watcher already waits 50 ms after a change and sends what came in that time
 * as one batch (an editor's write, rename and chmod); this joins batches only
 * a moment apart.
 */
const SETTLE_MS = 10;

/**
 * Whether the pages kept from earlier builds stay valid after `file` changed.
 * An edition (a Markdown file, edition.md or a data file's row) or a
 * publication.json is part of each page's recorded inputs, so the plugin sees
 * for itself which pages changed; anything else (a layout, an image, global
 * data, site.json) may change any page.
 */
function keepsMemory(content: string, file: string): boolean {
  const relative = path.relative(content, file).split(path.sep);
  if (relative[0] === ".." || relative.length < 2) return false;
  const name = relative.at(-1)!;
  // An edition.md or a data file's rows are in the recorded inputs of the pages made from them, too.
  if (relative.length === 2) return name === "publication.json" || name === TEMPLATE_FILE || isDataFile(name);
  return relative[1] === "editions" && name.endsWith(".md");
}

function describeFiles(files: string[]): string {
  const unique = [...new Set(files.map((f) => path.relative(process.cwd(), f)))];
  return unique.length === 1 ? unique[0]! : `${unique[0]} and ${unique.length - 1} more`;
}
