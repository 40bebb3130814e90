// A state store in another process, reached over Node's IPC channel: the
// delivery bench keeps the store (and the site and the fake print keys) out of
// the process it measures, as Netlify Blobs is out of a function's. Every
// call is one message there and one back; the latency of a Blobs round trip
// is added on the caller's side (latency-store.ts's withLatency).
import type { ChildProcess } from "node:child_process";
import type { StateStore } from "../../lib/platform/stores/state-store.ts";

type Method = keyof StateStore;
const METHODS: Method[] = ["get", "create", "createVersioned", "replace", "put", "delete", "list", "folders"];

/** A call to the store, as sent. */
interface StoreCall {
  store: number;
  method: Method;
  args: unknown[];
}
/** Its answer: the result, or the error's message. */
interface StoreAnswer {
  store: number;
  result?: unknown;
  error?: string;
}

type Channel = Pick<NodeJS.Process, "on" | "send">;

/** Answers the store calls that come over `channel` (a child's `process`) from `store`. */
export function serveStore(store: StateStore, channel: Channel): void {
  channel.on("message", (message: StoreCall) => {
    if (typeof message?.store !== "number" || !METHODS.includes(message.method)) return;
    const call = (store[message.method] as (...args: unknown[]) => Promise<unknown>).bind(store);
    call(...message.args).then(
      (result) => channel.send!({ store: message.store, result } satisfies StoreAnswer),
      (error: unknown) => channel.send!({ store: message.store, error: String(error) } satisfies StoreAnswer),
    );
  });
}

/** The store that `child` serves (serveStore), as a StateStore. */
export function ipcStore(child: ChildProcess): StateStore {
  let next = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on("message", (message: StoreAnswer) => {
    const waiter = typeof message?.store === "number" ? waiting.get(message.store) : undefined;
    if (!waiter) return;
    waiting.delete(message.store);
    if (message.error !== undefined) waiter.reject(new Error(message.error));
    else waiter.resolve(message.result);
  });
  const call =
    (method: Method) =>
    (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        child.send({ store: id, method, args } satisfies StoreCall);
      });
  return Object.fromEntries(METHODS.map((m) => [m, call(m)])) as unknown as StateStore;
}
