// The scheduled delivery run, every 15 minutes. It has no path: Netlify runs it
// on its schedule only (`npm run deliver` runs it by hand).
// The handler is littlepress's; Netlify reads `config` from this file as
// written, so the routes are spelled out here.
import type { Config } from "@netlify/functions";
export { default } from "littlepress/functions/deliver";

export const config: Config = { schedule: "*/15 * * * *" };
