// What `npm start` keeps from one build to the next, so that a save costs
// about what it changed: what each edition file gave (read again once its
// version changed), the edition pages rendered (a page whose inputs are
// unchanged is not rendered again), what the build worked out from each page's
// HTML (its hashes and ETags, its estimated length, its compressed bytes), and
// the files it wrote (linked, not written, when unchanged). Beside 1,000
// editions a save changes one page; the other 999 were read, hashed, measured
// and compressed again on every save before.

import { KeptFiles } from "./kept-files.ts";
import type { EditionRead } from "./site.ts";

/** A page rendered by an earlier build: the inputs it was rendered from, and its HTML. */
export interface RememberedPage {
  /** Its publication's settings, its edition's source and its variant, each as JSON. */
  inputs: readonly string[];
  html: string;
}

/** Works out a fact of a page's HTML once: the same HTML gives the same fact. */
export type Remember = <T>(html: string, fact: string, make: () => T) => T;

/** A build without memory (`npm run build`): every fact worked out as asked. */
export const workOut: Remember = (_html, _fact, make) => make();

export class RenderMemory {
  /** The files the last good build wrote: one of the same bytes is linked (kept by clear: bytes are bytes). */
  readonly files = new KeptFiles();
  /** What each Markdown edition file gave (site.ts): used while the file is of the same version. */
  readonly editionFiles = new Map<string, EditionRead>();
  /** Edition pages by URL. Valid while the layouts, global data and images are unchanged (see clear). */
  readonly pages = new Map<string, RememberedPage>();
  /** The removal of the folders the last good build replaced, still under way after it is served. */
  oldBuild: Promise<void> | undefined;
  /** Nunjucks templates as compiled, by all they were compiled from (compiled-templates.ts). */
  readonly templates = new Map<string, Record<string, unknown>>();
  /** Facts by HTML, then by name, each with the last build that used it. */
  readonly #facts = new Map<string, { build: number; facts: Map<string, unknown> }>();
  #build = 0;

  /** The fact named `fact` of this HTML, from an earlier build or made now. */
  readonly remember: Remember = <T>(html: string, fact: string, make: () => T): T => {
    let entry = this.#facts.get(html);
    if (!entry) this.#facts.set(html, (entry = { build: this.#build, facts: new Map() }));
    entry.build = this.#build;
    if (entry.facts.has(fact)) return entry.facts.get(fact) as T;
    const value = make();
    entry.facts.set(fact, value);
    return value;
  };

  /** Ends a build: the facts of HTML it did not use are dropped (an edited page's old text, say). */
  built(): void {
    for (const [html, { build }] of this.#facts) if (build !== this.#build) this.#facts.delete(html);
    this.#build++;
  }

  /** Forgets everything: after a change that may alter any page (a layout, an image, global data). */
  clear(): void {
    this.pages.clear();
    this.#facts.clear();
    this.editionFiles.clear();
    this.templates.clear();
  }
}
