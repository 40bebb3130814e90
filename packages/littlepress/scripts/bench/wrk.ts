// wrk, the load generator of the server runs: C and one thread, so on a
// 2-core machine it leaves the other core to the server under test (autocannon,
// in Node, needed a core of its own to send a third of what wrk sends). Every
// side of a comparison is sent the same way: a Lua script cycling through a
// list of request paths, and the figures read from its `done` summary.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { runChild } from "./util.ts";

export interface WrkRun {
  requestsPerSecond: number;
  /** Latency percentiles in milliseconds (wrk's own histogram, microsecond resolution). */
  p50: number;
  p99: number;
  requests: number;
  /** Answers with a status of 400 or more (wrk counts them as errors; a 410 is one). */
  non2xx: number;
}

/** wrk's version line, or a clear error when it is missing. */
export function wrkVersion(): string {
  const run = spawnSync("wrk", ["-v"], { encoding: "utf8" });
  const line = `${run.stdout ?? ""}${run.stderr ?? ""}`.split("\n")[0]!.trim();
  if (run.error || !line.startsWith("wrk"))
    throw new Error("wrk is not installed: `apt-get install wrk` (.ci/run installs it)");
  return line.replace(/ Copyright.*$/, "");
}

/** Writes the Lua script that sends `paths` in turn, and prints the summary as one JSON line. */
export function wrkScript(file: string, paths: readonly string[]): string {
  const list = paths.map((p) => JSON.stringify(p)).join(",\n  ");
  writeFileSync(
    file,
    `local paths = {\n  ${list}\n}
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK_JSON {\\"requests\\":%d,\\"duration_us\\":%d,\\"status\\":%d," ..
    "\\"socket\\":%d,\\"p50_us\\":%d,\\"p99_us\\":%d}\\n", summary.requests, summary.duration, e.status,
    e.connect + e.read + e.write + e.timeout, latency:percentile(50), latency:percentile(99)))
end
`,
  );
  return file;
}

/** One bounded run of wrk (one thread) against `origin` with the script's paths. */
export async function wrk(origin: string, script: string, seconds: number, connections: number): Promise<WrkRun> {
  const run = await runChild("wrk", ["-t1", `-c${connections}`, `-d${seconds}s`, "-s", script, origin], {
    timeoutMs: (seconds + 15) * 1000,
  });
  const line = /WRK_JSON (\{.*\})/.exec(run.stdout)?.[1];
  if (run.code !== 0 || !line)
    throw new Error(`wrk against ${origin} failed:\n${(run.stderr + run.stdout).slice(-2000)}`);
  const r = JSON.parse(line) as { requests: number; duration_us: number; status: number; socket: number };
  const { p50_us, p99_us } = JSON.parse(line) as { p50_us: number; p99_us: number };
  if (r.socket) throw new Error(`wrk against ${origin}: ${r.socket} socket errors or timeouts`);
  return {
    requestsPerSecond: r.requests / (r.duration_us / 1e6),
    p50: p50_us / 1000,
    p99: p99_us / 1000,
    requests: r.requests,
    non2xx: r.status,
  };
}
