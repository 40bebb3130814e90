// Eleventy ships no TypeScript types; the build uses its documented programmatic API only.
declare module "@11ty/eleventy" {
  export default class Eleventy {
    constructor(
      input?: string,
      output?: string,
      options?: {
        quietMode?: boolean;
        configPath?: string;
        /** Runs before the config file: a plugin added here with `unique` is the one that counts. */
        config?: (eleventyConfig: { addPlugin(plugin: unknown, options?: object): void }) => void;
      },
    );
    disableLogger(): void;
    write(): Promise<unknown>;
  }
  /** Eleventy's bundle plugin ({% css %}, getBundle), built in. */
  export const BundlePlugin: (eleventyConfig: unknown, options?: Record<string, unknown>) => void;
  /** Eleventy's render plugin: renderTemplate renders a string with Eleventy's own engines. */
  export const RenderPlugin: (eleventyConfig: unknown, options?: Record<string, unknown>) => void;
}

declare module "@11ty/eleventy-img" {
  export default function Image(
    src: string,
    options: Record<string, unknown>,
  ): Promise<Record<string, { url: string; width: number; height: number }[]>>;
}
