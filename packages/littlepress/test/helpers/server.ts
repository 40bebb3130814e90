// Runs the local server on a free 127.0.0.1 port for the tests of one describe
// block. The server hands the functions the site it serves with each request.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createTcpServer, type AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { builtSite } from "./sites.ts";

export function withServer(site: string): { readonly url: string } {
  let server: LocalServer | undefined;
  beforeAll(async () => {
    server = await startServer({ port: 0, siteDir: builtSite(site) });
  });
  afterAll(() => server?.close());
  return {
    get url() {
      if (!server) throw new Error("the server starts in beforeAll");
      return server.url;
    },
  };
}

/**
 * A project that plays Netlify's side of a batch's hand-over: the package's
 * functions, with the batch function at /.netlify/functions/deliver-background,
 * the address Netlify gives it (the local server routes no function without a
 * path: a self-hosted site runs its batches in `npm run deliver`). Start the
 * server with it as `root`, and `siteDir` and the state as absolute paths.
 */
export function netlifySide(): { root: string; remove: () => void } {
  const root = path.resolve(`.test-work/netlify-side-${process.pid}-${++sides}`);
  mkdirSync(path.join(root, "functions"), { recursive: true });
  for (const file of readdirSync(PACKAGE_FUNCTIONS).filter((f) => f.endsWith(".mts"))) {
    const source = JSON.stringify(pathToFileURL(path.join(PACKAGE_FUNCTIONS, file)).href);
    const routed = file === "deliver-background.mts";
    writeFileSync(
      path.join(root, "functions", file),
      routed
        ? `export { default, methods } from ${source};\nexport const config = { path: ${NETLIFY_ADDRESS} };\n`
        : `export * from ${source};\nexport { default } from ${source};\n`,
    );
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
let sides = 0;
const NETLIFY_ADDRESS = JSON.stringify("/.netlify/functions/deliver-background");
const PACKAGE_FUNCTIONS = path.resolve("functions");

/**
 * `count` ports on 127.0.0.1 that nothing listens on: bound at once (so each is another), then let go, and none of
 * `besides`. Start the servers a test needs first, and pass their ports: the system hands a port it has just let go
 * to the next server that asks for any, and a "closed" port that is a test's own server answers.
 */
export async function closedPorts(count: number, besides: readonly number[] = []): Promise<number[]> {
  for (;;) {
    const servers = Array.from({ length: count }, () => createTcpServer());
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
    const ports = servers.map((s) => (s.address() as AddressInfo).port);
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    if (!ports.some((port) => besides.includes(port))) return ports;
  }
}
