// Live data: the headlines, fetched through @11ty/eleventy-fetch when the site
// is built, from the address in WIRE_URL (a server of the test's own). Kept for
// no time at all ("0s"): the test's server answers differently from run to run.
import Fetch from "@11ty/eleventy-fetch";

export default async function () {
  const url = process.env.WIRE_URL;
  if (!url) throw new Error("set WIRE_URL to the address of the headlines (JSON)");
  return { wire: await Fetch(url, { duration: "0s", type: "json" }) };
}
