// Text settings in an edition's Liquid. Their values arrive with each request,
// after the page is built (lib/model/text-slots.ts), so while an edition is
// rendered `config.<name>` of a text field is a TextSetting: printed with
// {{ config.<name> }}, it leaves the slot the request fills; anything that
// would need its value now (a condition, a comparison, a filter, a loop, its
// size) throws, and the build names the file, the line and the fix. Liquid
// itself decides what needs the value: every such use reads the drop's value
// (valueOf) or compares it (a Comparable's methods), whatever the spacing or
// the tag it is written in.
import { Drop } from "liquidjs";
import { errorChain, type ContentProblem } from "../model/content-error.ts";
import { slotToken } from "../model/text-slots.ts";

/** Thrown when an edition's Liquid needs a text setting's value while the page is built. */
export class TextSettingUse extends Error {
  constructor(
    readonly setting: string,
    readonly use: string,
  ) {
    super(`the text setting config.${setting} was ${use} while the page was built`);
    this.name = "TextSettingUse";
  }
}

/** A text field's `config.<name>` while an edition is rendered: it can be printed, and nothing else. */
export class TextSetting extends Drop {
  constructor(readonly setting: string) {
    super();
  }

  /** Liquid reads a value this way for conditions, loops, `contains`, filters and `{% echo %}`. */
  override valueOf(): never {
    throw new TextSettingUse(this.setting, "used in a condition, a loop or a filter");
  }

  override toString(): never {
    throw new TextSettingUse(this.setting, "used in a condition, a loop or a filter");
  }

  // Comparable: Liquid's ==, !=, <, >, <=, >= and `when` ask the drop itself.
  equals(): never {
    throw new TextSettingUse(this.setting, "compared");
  }
  gt(): never {
    throw new TextSettingUse(this.setting, "compared");
  }
  geq(): never {
    throw new TextSettingUse(this.setting, "compared");
  }
  lt(): never {
    throw new TextSettingUse(this.setting, "compared");
  }
  leq(): never {
    throw new TextSettingUse(this.setting, "compared");
  }

  /** What filters such as `size` read. */
  get length(): never {
    throw new TextSettingUse(this.setting, "measured");
  }

  /** `config.<name>.size`, `.first` and any other property. */
  override liquidMethodMissing(key: unknown): never {
    throw new TextSettingUse(this.setting, `asked for its .${String(key)}`);
  }

  /** For anything that copies data as JSON: the slot it prints. */
  toJSON(): string {
    return slotToken(this.setting);
  }
}

/**
 * Liquid's `outputEscape`, applied last to every {{ … }}: a text setting
 * printed as it is becomes its slot; any other value passes unchanged.
 */
export function printTextSetting(value: unknown): string {
  // Typed as Liquid's outputEscape is; Liquid turns any other value into text after it.
  return value instanceof TextSetting ? slotToken(value.setting) : (value as string);
}

/**
 * The author's problem, when a render failed because a text setting was
 * needed: the setting, the line of the edition's file and the tag.
 */
export function textSettingProblem(
  error: unknown,
  file: string,
  bodyLine: number,
  rendering = "",
): ContentProblem | undefined {
  const chain = errorChain(error, 12);
  const use = chain.find((e): e is TextSettingUse => e instanceof TextSettingUse);
  if (!use) return undefined;
  const where = liquidPlace(chain, bodyLine);
  const name = use.setting;
  return {
    file,
    field: `config.${name}`,
    problem:
      `the text setting \`${name}\` is ${use.use}${where}${rendering}: ` +
      "a text setting is filled in after the page is built, so it cannot decide what the page shows " +
      "(it is neither empty nor equal to anything at build time)",
    fix:
      `print it as it is, {{ config.${name} }}; use a select setting for choices ` +
      '("type": "select" with "options": every edition is built for each option), ' +
      `and give the field a "default" for subscribers who leave it empty (docs/settings.md: "Text settings")`,
  };
}

/**
 * Where in the edition's file a Liquid error happened, from the innermost
 * Liquid error of the chain, which names the tag or {{ … }} and its place:
 * " at line 7, column 4 ({% if … %})", or "" when none says.
 */
export function liquidPlace(chain: unknown[], bodyLine: number): string {
  const liquid = chain.findLast(
    (e): e is { message: string; token?: { getText?: () => string } } =>
      e instanceof Error && /line:\d+, col:\d+/.test(e.message),
  );
  const place = liquid ? /line:(\d+), col:(\d+)/.exec(liquid.message) : null;
  const tag = liquid?.token?.getText?.().split("\n")[0]?.slice(0, 120);
  return (place ? ` at line ${Number(place[1]) + bodyLine - 1}, column ${place[2]}` : "") + (tag ? ` (${tag})` : "");
}
