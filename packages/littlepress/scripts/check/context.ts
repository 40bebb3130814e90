// What every stage of the check needs: where the publication is, how long to
// wait for it, and where to say what is happening.

export interface CheckContext {
  /** The publication's base URL, always ending in "/". */
  base: string;
  timeoutMs: number;
  progress: (line: string) => void;
}

/** A path under the publication: "edition/" -> "http://host/pub/edition/". */
export const under = (ctx: CheckContext, path: string) => new URL(path, ctx.base).href;

/** What the later stages learn from meta.json. */
export interface Publication {
  name: string;
  sendTimezoneInfo: boolean;
  sendDeliveryCount: boolean;
  /** config.fields as served, or [] when there is no form. Shape is checked in form-checks.ts. */
  fields: unknown[];
}
