// Runs the local server on a free 127.0.0.1 port for the tests of one describe
// block. The functions find their site through LITTLEPRESS_SITE_DIR, one per
// process, so blocks that use different sites run one after the other.
import { afterAll, beforeAll } from "vitest";
import { startServer, type LocalServer } from "../../lib/serve/server.ts";
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
