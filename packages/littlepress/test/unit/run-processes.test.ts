// The run's own processes, found by its temporary folder and ended before the folder is removed
// (test/helpers/run-processes.ts, run-temporary-folder.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { endProcessesOf, processesOf } from "../helpers/run-processes.ts";

const folder = mkdtempSync(path.join(tmpdir(), "run-processes-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(folder, { recursive: true, force: true });
});

/** A Node process waiting a minute; `code` runs first. Its stdout is piped, for what `code` says. */
function waiting(env: NodeJS.ProcessEnv, args: string[] = [], code = ""): ChildProcess {
  const child = spawn(process.execPath, ["-e", `${code}setTimeout(() => {}, 60_000)`, "--", ...args], {
    env,
    stdio: ["ignore", "pipe", "ignore"],
  });
  children.push(child);
  return child;
}
const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((settle) => child.once("exit", () => settle()));

it("finds the processes naming the folder as TMPDIR or in their command line, and ends them", async () => {
  const inherited = waiting({ ...process.env, TMPDIR: folder });
  const named = waiting({ PATH: process.env.PATH ?? "" }, [`--user-data-dir=${folder}/profile`]);
  const stubborn = waiting({ ...process.env, TMPDIR: folder }, [], "process.on('SIGTERM', () => {}); console.log(1); ");
  // Says so once it has its handler: on a loaded machine a Node process took more than the 300 ms once waited here.
  const hasHandler = new Promise((resolve) => stubborn.stdout?.once("data", resolve));
  const other = waiting({ ...process.env, TMPDIR: `${folder}-other` });
  // Each is found once it runs (its /proc entry has its environment and command line).
  const ours = [inherited, named, stubborn].map((c) => c.pid);
  for (let tries = 0; processesOf(folder).length < 3 && tries < 600; tries++)
    await new Promise((r) => setTimeout(r, 50));
  expect(processesOf(folder).sort()).toEqual(ours.sort());
  await hasHandler;
  const killed = await endProcessesOf(folder, 1_000);
  expect(killed).toEqual([`node (${stubborn.pid})`]);
  await Promise.all([inherited, named, stubborn].map(exited));
  expect(stubborn.signalCode).toBe("SIGKILL");
  expect(inherited.signalCode).toBe("SIGTERM");
  expect(processesOf(folder)).toEqual([]);
  expect(other.exitCode === null && other.signalCode === null).toBe(true);
});
