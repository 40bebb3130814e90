// The browser's own time zones, for the simulator's inputs. Dates and delivery
// times themselves are the model's rules, in ./model.js (lib/model, bundled by
// the build).

/** The browser's own zone, or UTC. */
export function browserTimeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** Every zone the browser knows (for the suggestions list). */
export function timeZones() {
  try {
    const zones = Intl.supportedValuesOf("timeZone");
    return zones.includes("UTC") ? zones : [...zones, "UTC"];
  } catch {
    return ["UTC"];
  }
}
