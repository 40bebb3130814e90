// `npm start` answers nothing before its first build: an edition/ asked while
// the site is still being built would be "nothing today" (204), and a serial's
// subscriber would skip an edition. Its port opens at once, though: a tool that
// waits for the port gives up on a slow build (netlify dev, after some 15 s).
// The port is polled from the moment the process starts; a request on the
// first connection it accepts, during the build, must get the real edition.
// A first build that fails still ends with the server up, showing the problem.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LIVE_EVENTS } from "../../lib/server/live-reload.ts";
import { freePort } from "../../scripts/cli.ts";
import { spawnStart } from "../../scripts/start.ts";
import { RawConnection, rawRequest } from "../helpers/raw-http.ts";
import { FIXTURES } from "../helpers/sites.ts";
import { compiled } from "../helpers/kit-script.ts";

const ROOT = path.join(".test-work", `start-first-build-${process.pid}`);
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

/** A content folder with the serial fixture in it, and what `extra` adds (paths under the content folder). */
function contentWith(name: string, extra: Record<string, string>): { content: string; output: string } {
  const content = path.join(ROOT, name, "content");
  rmSync(path.dirname(content), { recursive: true, force: true });
  mkdirSync(content, { recursive: true });
  cpSync(path.join(FIXTURES, "basic", "serial"), path.join(content, "serial"), { recursive: true });
  for (const [file, text] of Object.entries(extra)) writeFileSync(path.join(content, file), text);
  return { content, output: path.join(ROOT, name, "_site") };
}

describe("npm start before its first build", { timeout: 90_000 }, () => {
  it("opens its port during the build, and answers edition/ with the edition once built", async () => {
    // A data file that takes its time, as one that fetches does: the build lasts until the test lets it end.
    const go = path.resolve(ROOT, "slow-go");
    const slow = `import { existsSync } from "node:fs";
export default async () => {
  while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 50));
  return {};
};
`;
    const { content, output } = contentWith("slow", { "serial/serial.11tydata.js": slow });
    const port = await freePort(0);
    const args = [compiled("scripts/start.ts"), "--port", String(port), "--content", content];
    const child = spawn(process.execPath, [...args, "--output", output], { stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const deadline = Date.now() + 60_000;
      let connection: RawConnection | undefined;
      while (!connection) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start never listened:\n${log}`);
        connection = await RawConnection.open(`http://127.0.0.1:${port}`).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "ECONNREFUSED") throw error;
          return new Promise<undefined>((resolve) => setTimeout(resolve, 10));
        });
      }
      try {
        expect(log).not.toMatch(/littlepress: built /);
        const host = { Host: `127.0.0.1:${port}`, Connection: "close" };
        await connection.write(rawRequest("GET", "/serial/edition/?delivery_count=0", host));
        // The request waits for the build, which ends only now.
        await new Promise((r) => setTimeout(r, 300));
        writeFileSync(go, "");
        const first = await connection.response({ timeoutMs: 30_000 });
        expect(first.status, first.body.toString()).toBe(200);
        expect(first.body.toString()).toContain("<html");
      } finally {
        connection.close();
      }
      // "serving" is said once the build is done.
      const deadlineLine = Date.now() + 30_000;
      while (!/serving .* on http:\/\/127\.0\.0\.1:\d+\//.test(log) && Date.now() < deadlineLine)
        await new Promise((r) => setTimeout(r, 20));
      const built = log.search(/littlepress: built /);
      expect(built, log).toBeGreaterThanOrEqual(0);
      expect(log.indexOf(`serving ${output}/ and the functions on http://127.0.0.1:${port}/`)).toBeGreaterThan(built);
    } finally {
      child.kill("SIGINT");
      await exited;
    }
  });

  it("on a port another program holds, says so at once and builds nothing", async () => {
    const { content, output } = contentWith("busy", {});
    const other = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const { port } = other.address() as { port: number };
    try {
      const args = [compiled("scripts/start.ts"), "--port", String(port), "--content", content, "--output", output];
      const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
      let log = "";
      child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      const code = await new Promise((resolve) => child.once("exit", resolve));
      clearTimeout(timer);
      expect(code, log).toBe(1);
      expect(log).toBe(`start: port ${port} on 127.0.0.1 is in use by another program; pick another with --port\n`);
      expect(existsSync(output)).toBe(false);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("still serves, and shows the problem, when the first build fails", async () => {
    const broken = "---\nnumber: 0\ntitle: Part one\n---\n{% if %}broken{% endif %}\n";
    const { content, output } = contentWith("broken", { "serial/editions/0.md": broken });
    const started = await spawnStart({ content, output });
    try {
      expect(started.log).toContain("content/serial/editions/0.md");
      expect(started.log).toContain("still serving the last good build");
      const res = await fetch(started.url + LIVE_EVENTS, { signal: AbortSignal.timeout(10_000) });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let events = "";
      while (!/^data: .*$/m.test(events)) events += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      const state = JSON.parse(/^data: (.*)$/m.exec(events)![1]!) as { build: number; problem?: string };
      expect(state.build).toBe(0);
      expect(state.problem).toContain("content/serial/editions/0.md");
    } finally {
      await started.stop();
    }
  });
});
