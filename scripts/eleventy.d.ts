// Eleventy ships no TypeScript types; the build uses its documented programmatic API only.
declare module "@11ty/eleventy" {
  export default class Eleventy {
    constructor(input?: string, output?: string, options?: { quietMode?: boolean; configPath?: string });
    disableLogger(): void;
    write(): Promise<unknown>;
  }
}
