// Liquid filters for dated editions (`day` holds the rest: lib/model/day-facts.ts).
import type { EleventyConfig } from "@11ty/eleventy";
import { daysUntil } from "../model/day-facts.ts";

export function addDateFilters(eleventyConfig: EleventyConfig) {
  // {{ date | days_until: "2026-12-25" }}: a countdown, negative once the day has passed.
  eleventyConfig.addFilter("days_until", (date: unknown, target: unknown) => {
    const days = daysUntil(date, target);
    if (days === undefined)
      throw new Error(
        `days_until needs two dates written YYYY-MM-DD, as in {{ date | days_until: "2026-12-25" }}; ` +
          `got ${JSON.stringify(date)} and ${JSON.stringify(target)}`,
      );
    return days;
  });
}
