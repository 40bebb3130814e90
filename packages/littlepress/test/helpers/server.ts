// Runs the local server on a free 127.0.0.1 port for the tests of one describe
// block. The server hands the functions the site it serves with each request.
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
