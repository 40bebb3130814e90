// The repository's checks run npx and npm, which do their work in a child: a
// check that times out must stop that child too, or it runs on after the suite.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { finished } from "./processes.ts";

// A process that ended but was not yet reaped (its parent gone, here) shows as a zombie: not running.
const running = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

describe("finished", () => {
  test("resolves to what the command printed, on both streams", async () => {
    const output = await finished("sh", ["-c", "echo out; echo err >&2"], {
      cwd: ".",
      env: process.env,
      within: 10_000,
    });
    expect(output).toContain("out");
    expect(output).toContain("err");
  });

  test("rejects with the exit code and the output of a command that fails", async () => {
    const failing = finished("sh", ["-c", "echo why; exit 3"], { cwd: ".", env: process.env, within: 10_000 });
    await expect(failing).rejects.toThrow(/failed \(3\)[\s\S]*why/);
  });

  test("past its time, stops the command and the child it started", async () => {
    // The shell starts a child and waits for it, as npx waits for the real tool.
    const script = "sleep 60 & echo child=$!; wait";
    const timedOut = finished("sh", ["-c", script], { cwd: ".", env: process.env, within: 1_000 });
    await expect(timedOut).rejects.toThrow(/did not finish in 1000 ms[\s\S]*child=(\d+)/);
    const message = await timedOut.catch((error: Error) => error.message);
    const child = Number(/child=(\d+)/.exec(message)![1]);
    expect(child).toBeGreaterThan(0);
    expect(running(child)).toBe(false);
  });
});
