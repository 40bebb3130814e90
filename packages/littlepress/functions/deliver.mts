// The scheduled delivery run, every 15 minutes (lib/platform/delivering/scheduled-run.ts).
// It has no path: Netlify runs it on its schedule only, and the local server
// gives it no route (a run is started by the schedule or by `npm run deliver`).
import type { Config } from "@netlify/functions";
export { deliver as default } from "../lib/platform/delivering/scheduled-run.ts";

export const config: Config = { schedule: "*/15 * * * *" };
