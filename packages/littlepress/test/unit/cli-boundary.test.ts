// The commands' one error boundary (scripts/cli.ts's runTool): one exit code
// per kind of outcome (EXIT), whatever the command, and one line for what went
// wrong, never a stack trace. A stand-in command fails each way
// (test/fixtures/tools/faulty-tool.ts); real commands show the kinds they meet.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT, sayFailure, ToolFailure } from "../../scripts/cli.ts";
import { compiled } from "../helpers/kit-script.ts";

const run = promisify(execFile);
const TIMEOUT = 60_000;

/** `node <command…>`, whatever its exit code. */
async function exitOf(command: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, command, { timeout: TIMEOUT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout: string; stderr: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout, stderr: e.stderr };
  }
}

const faulty = (way: string) => exitOf(["--import", "tsx", "test/fixtures/tools/faulty-tool.ts", way]);

describe("the boundary", () => {
  it("says a thrown failure in one line: a ToolFailure exit 1 (2 for usage), else an internal fault, 3", () => {
    let said = "";
    const out = { stdout: () => undefined, stderr: (t: string) => void (said += t) };
    expect(sayFailure("tool", new ToolFailure("the printer is off"), out)).toBe(EXIT.failed);
    expect(sayFailure("tool", new ToolFailure("no such slug", true), out)).toBe(EXIT.usage);
    expect(sayFailure("tool", new Error("it broke\n    at a frame"), out)).toBe(EXIT.fault);
    expect(sayFailure("tool", "a string", out)).toBe(EXIT.fault);
    expect(said).toBe(
      "tool: the printer is off\ntool: no such slug\ntool: internal error: it broke\ntool: internal error: a string\n",
    );
  });

  it.concurrent.each([
    ["done", EXIT.done, ""],
    ["answer", EXIT.failed, ""],
    ["failure", EXIT.failed, "faulty: the printer is off\n"],
    ["usage", EXIT.usage, 'faulty: there is no publication "nope"\n'],
    ["fault", EXIT.fault, "faulty: internal error: it broke\n"],
    ["stray", EXIT.fault, "faulty: internal error: a handler broke\n"],
    ["rejection", EXIT.fault, "faulty: internal error: a promise nobody awaited\n"],
  ])(
    "a command that ends %s exits %i, with what it said in one line",
    async (way, code, stderr) => {
      expect(await faulty(way)).toEqual({ code, stdout: "", stderr });
    },
    TIMEOUT,
  );
});

describe("real commands", () => {
  const work = mkdtempSync(path.join(tmpdir(), "littlepress-boundary-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it(
    "print-server: a config that is a folder, not a file it can read, is an internal fault, in one line",
    async () => {
      const result = await exitOf([compiled("scripts/print-server.ts"), "--config", work, "--once"]);
      expect(result).toMatchObject({ code: EXIT.fault, stdout: "" });
      expect(result.stderr).toMatch(/^print-server: internal error: EISDIR[^\n]*\n$/);
    },
    TIMEOUT,
  );

  it(
    "print-server: a config that is not there is the person's to fix: exit 1, in one line",
    async () => {
      const missing = path.join(work, "printers.json");
      const result = await exitOf([compiled("scripts/print-server.ts"), "--config", missing, "--once"]);
      expect(result).toEqual({ code: EXIT.failed, stdout: "", stderr: `print-server: ${missing}: no such file\n` });
    },
    TIMEOUT,
  );

  it(
    "serve: a port another program holds is the person's to fix: exit 1, in one line",
    async () => {
      const other = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
      const { port } = other.address() as { port: number };
      try {
        const result = await exitOf([compiled("scripts/serve.ts"), "--port", String(port), "--site", work]);
        expect(result).toMatchObject({ code: EXIT.failed, stdout: "" });
        expect(result.stderr).toMatch(/^serve: cannot start the server: listen EADDRINUSE[^\n]*\n$/);
      } finally {
        await new Promise((resolve) => other.close(resolve));
      }
    },
    TIMEOUT,
  );
});
