// Eleventy ships no TypeScript types; the build uses its documented programmatic API only.
declare module "@11ty/eleventy" {
  /**
   * The part of Eleventy's configuration API the kit calls (Eleventy's UserConfig;
   * documented at 11ty.dev/docs/config). A plugin's eleventyConfig.
   */
  export interface EleventyConfig {
    /** `layouts` only when the site names a layouts folder of its own (`dir.layouts`). */
    directories: { input: string; output: string; includes: string; layouts?: string };
    ignores: Set<string>;
    liquid?: { options?: Record<string, unknown> };
    addPlugin(plugin: unknown, options?: object): unknown;
    addTemplate(path: string, content: unknown, data?: object): void;
    addTransform(name: string, transform: (this: { page: { url: string } }, content: string) => unknown): void;
    addPassthroughCopy(copy: string | Record<string, string>, options?: { filter?: string[] }): void;
    addBundle(name: string): void;
    addFilter(name: string, filter: (...args: never[]) => unknown): void;
    on(event: string, listener: (arg: never) => unknown): void;
    /** Runs the listeners `on` gave the event, in turn. */
    emit(event: string, ...args: unknown[]): Promise<unknown>;
    setLiquidOptions(options: Record<string, unknown>): void;
    amendLibrary(name: "liquid" | "md", amend: (library: never) => void): void;
    /** Throws Eleventy's own error when the running Eleventy is outside the semver range. */
    versionCheck(range: string): void;
    /** Adds template formats to the site's (`templateFormats`), as a plugin may. */
    addTemplateFormats(formats: string): void;
    /** `resetConfig`: a change there runs the config (and its plugins) again under --serve and --watch. */
    addWatchTarget(target: string, options?: { resetConfig?: boolean }): void;
  }
  export default class Eleventy {
    constructor(
      input?: string,
      output?: string,
      options?: {
        quietMode?: boolean;
        /** A config file to load; false loads none (Eleventy skips its own defaults too). */
        configPath?: string | false;
        /** "cli": the input and output given here win over the config file's `dir`, as on the command line. */
        source?: "cli" | "script";
        /** Runs before the config file: a plugin added here with `unique` is the one that counts. */
        config?: (eleventyConfig: EleventyConfig) => void;
      },
    );
    disableLogger(): void;
    /** The project's folders; setOutput(dir) before the plugins run sends the build elsewhere. */
    readonly directories: { output: string; setOutput(dir: string): void };
    /** Reads the config file and runs it (its plugins too), and sets `directories`; init() does it first. */
    initializeConfig(): Promise<void>;
    /** Reads the config and the input (write() does it when not yet done), as Eleventy's command line does first. */
    init(): Promise<void>;
    write(): Promise<unknown>;
    /** Eleventy's copier of passthrough files, made by init(). Not in Eleventy's documentation. */
    passthroughManager?: { copyPassthrough(pass: unknown): Promise<unknown> };
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
