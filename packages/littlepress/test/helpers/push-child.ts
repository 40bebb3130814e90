// A push run in a process of its own, for the test that kills one midway:
// node --import tsx test/helpers/push-child.ts <state folder> <site> <seal key base64> <ISO instant>
//   <print-key service origin>
// One copy at a time, so that it dies between subscribers.
import { runPushes } from "../../lib/platform/pushing/push-run.ts";
import { fileStore } from "../../lib/platform/stores/state-store.ts";

const [folder, site, key, at, printKeys] = process.argv.slice(2) as [string, string, string, string, string];
await runPushes({
  store: fileStore(folder),
  site,
  sealKey: Buffer.from(key, "base64"),
  at: new Date(at),
  printKeys: { allowed: [{ origin: printKeys, private: true }], timeoutMs: 600_000 },
  timeoutMs: 600_000,
  concurrency: 1,
});
