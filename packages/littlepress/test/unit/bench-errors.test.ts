// A bench child that fails is said in one line by the command (scripts/cli.ts shows only the first): that
// line must carry what went wrong, not only that something did.
import { describe, expect, it } from "vitest";
import { mustSucceed, telling } from "../../scripts/bench/util.ts";

// What Node printed when the before kit's server could not load a package this project had dropped.
const MISSING = `node:internal/modules/run_main:123
    triggerUncaughtException(
    ^
Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'node-html-parser' imported from /k/functions/subscribe.mjs
    at packageResolve (node:internal/modules/esm/resolve:873:9)

Node.js v20.20.2
`;

describe("a failed bench child's telling line", () => {
  it("is the line that names the error, not the first or the last", () => {
    expect(telling(MISSING)).toBe(
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'node-html-parser' imported from /k/functions/subscribe.mjs",
    );
  });

  it("is the last line when none names an error, and says so when there is no output", () => {
    expect(telling("building...\nwrk: connection refused\n")).toBe("wrk: connection refused");
    expect(telling("  \n")).toBe("(no output)");
  });

  it("leads mustSucceed's error, with the output after it", () => {
    const failed = () =>
      mustSucceed("the before server", {
        code: 1,
        ms: 5,
        timedOut: false,
        peakRssAtStop: 0,
        stdout: "",
        stderr: MISSING,
      });
    expect(failed).toThrow(/^the before server failed \(exit 1\): Error \[ERR_MODULE_NOT_FOUND\]: Cannot find package/);
    expect(failed).toThrow(/Node\.js v20\.20\.2$/);
  });
});
