// `npm test`: every test there is. In the littlepress repository, the kit's own
// tests first, in its workspace (packages/littlepress); then the site's: its
// TypeScript checked and test/ run. A site made from this starter has no
// packages/ folder, so it runs its own tests alone. First of all, littlepress
// must be installed (scripts/check-install.js says how when it is not).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { installProblem } from "./check-install.js";

const problem = installProblem();
if (problem) {
  console.error(problem);
  process.exit(1);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const steps = [
  ...(existsSync("packages/littlepress/package.json") ? [["test", "--workspace", "littlepress"]] : []),
  ["run", "test:site"],
];
for (const args of steps) {
  const { status } = spawnSync(npm, args, { stdio: "inherit", shell: process.platform === "win32" });
  if (status !== 0) process.exit(status ?? 1);
}
