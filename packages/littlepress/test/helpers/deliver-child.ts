// A delivery run in a process of its own, for the test that kills one midway:
// node --import tsx test/helpers/deliver-child.ts <state folder> <origin> <seal key base64> <ISO instant>
//   <print-key service origin> [<deliveries in flight at once>]
import { runDeliveries } from "../../lib/platform/delivering/run.ts";
import { fileStore } from "../../lib/platform/stores/state-store.ts";

const [folder, origin, key, at, printKeys, concurrency] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string | undefined,
];
await runDeliveries({
  store: fileStore(folder),
  origin,
  sealKey: Buffer.from(key, "base64"),
  at: new Date(at),
  printKeys: { allowed: [{ origin: printKeys, private: true }], timeoutMs: 600_000 },
  timeoutMs: 600_000,
  budgetMs: 3_600_000, // more than three timeouts, or the run would start nothing
  ...(concurrency !== undefined && { concurrency: Number(concurrency) }),
});
