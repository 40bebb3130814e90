// How many pages a run sends at once to one print service. sirius renders a
// page in PhantomJS before it answers, with no queue: one page takes 0.3-1.7 s,
// 16 at once 3-5 s each, 48 at once 7-11 s each (platform.md). A fixed number
// in flight either floods a shared service or starves a fast one, so each
// service gets a limit that follows its answers (additive increase,
// multiplicative decrease, on how long it takes to answer):
// - it starts at START and grows by one each time an answer comes about as fast
//   as the fastest seen (a service with room answers as fast with more in
//   flight); once an answer has come slow, by one a round of answers only;
// - an answer that took more than SLOWER times the fastest, and more than
//   JITTER_MS over it (so that a service answering in a millisecond is not read
//   as loaded when this process is busy), or an error status or no answer,
//   shrinks it by a quarter, at most once per round of answers, never below one.
// A service that renders one page at a time settles where its answers stay
// fast: about as many in flight as it renders at once.

/** Pages in flight to a service that has not answered yet. */
export const START = 2;
/** An answer this many times slower than the fastest seen says the service is loaded. */
const SLOWER = 2;
/** Within this of the fastest, a slower answer is jitter (the network, this process's own load), not load. */
const JITTER_MS = 100;
/** What is left of the limit after a slow answer. */
const SHRINK = 0.75;

/** One service's limit, and what holds it. */
export interface ServiceLimit {
  /** Runs `work` once fewer than the limit are in flight to the service; `work` says whether its answer came fast. */
  run<R>(work: () => Promise<R>, answered: (result: R) => boolean): Promise<R>;
  /** The limit now, and the most that were in flight at once so far. */
  readonly limit: number;
  readonly peak: number;
}

/** The limits of a run, one per print service (by origin), each at most `max` in flight. */
export function serviceLimits(max: number, now: () => number = () => performance.now()) {
  const limits = new Map<string, ServiceLimit>();
  return (service: string): ServiceLimit => {
    let limit = limits.get(service);
    if (!limit) limits.set(service, (limit = new AdaptiveLimit(max, now)));
    return limit;
  };
}

export type ServiceLimits = ReturnType<typeof serviceLimits>;

/** One service's limit: who is in flight, who waits, and how the limit follows the answers. */
class AdaptiveLimit implements ServiceLimit {
  #limit: number;
  #active = 0;
  #peak = 0;
  #fastest = Infinity;
  // Answers since the last shrink: the next shrink waits for a round of them, so one burst of slow answers
  // (every page that was in flight when the service slowed) counts once.
  #sinceShrink = Infinity;
  // Until the first slow answer, the limit grows by one an answer; after it, by one a round (as TCP's congestion
  // avoidance), so that it hovers near what the service takes instead of overshooting it again.
  #probing = true;
  readonly #waiting: (() => void)[] = [];

  constructor(
    private readonly max: number,
    private readonly now: () => number,
  ) {
    this.#limit = Math.min(START, max);
  }

  get limit(): number {
    return Math.floor(this.#limit);
  }
  get peak(): number {
    return this.#peak;
  }

  async run<R>(work: () => Promise<R>, answered: (result: R) => boolean): Promise<R> {
    if (this.#active < this.limit) this.#active++;
    else await new Promise<void>((go) => this.#waiting.push(go));
    this.#peak = Math.max(this.#peak, this.#active);
    const started = this.now();
    try {
      const result = await work();
      this.#settle(this.now() - started, answered(result));
      return result;
    } catch (error) {
      this.#settle(this.now() - started, false);
      throw error;
    } finally {
      this.#active--;
      this.#admit();
    }
  }

  /** Lets waiting sends go while the limit has room (a place handed over counts as taken). */
  #admit(): void {
    while (this.#active < this.limit && this.#waiting.length) {
      this.#active++;
      this.#waiting.shift()!();
    }
  }

  /** The limit after an answer that took `took` ms (`ok`: the service answered as it does when it works). */
  #settle(took: number, ok: boolean): void {
    this.#sinceShrink++;
    if (ok) this.#fastest = Math.min(this.#fastest, took);
    const slow = !ok || took > Math.max(this.#fastest * SLOWER, this.#fastest + JITTER_MS);
    if (!slow) this.#limit = Math.min(this.max, this.#limit + (this.#probing ? 1 : 1 / this.#limit));
    else if (this.#sinceShrink >= this.#limit) {
      this.#limit = Math.max(1, this.#limit * SHRINK);
      this.#sinceShrink = 0;
      this.#probing = false;
    }
  }
}
