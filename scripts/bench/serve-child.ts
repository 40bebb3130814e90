// The kit's local server in a process of its own, so the load generator and
// the server never share a thread. Prints its URL as one line, then serves
// until the parent kills it. Usage: node --import tsx scripts/bench/serve-child.ts <siteDir>
import { startServer } from "../../lib/server/server.ts";

const siteDir = process.argv[2];
if (!siteDir) throw new Error("usage: serve-child.ts <siteDir>");
const { url } = await startServer({ port: 0, siteDir });
process.stdout.write(`BENCH_URL ${url}\n`);
// A clean exit on SIGTERM, so `node --cpu-prof` can write its profile when the parent stops it.
process.on("SIGTERM", () => process.exit(0));
