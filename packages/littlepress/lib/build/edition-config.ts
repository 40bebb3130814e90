// `config` as an edition's Liquid sees it: the publication's settings, one
// value per variant (text settings as their TextSettings, text-settings.ts),
// and nothing else. A name the publication does not define fails the build
// wherever it is read (a condition, a filter, a loop, {{ … }}): under
// `{% if config.lenght == "long" %}` a misspelt or renamed setting would
// otherwise be nothing, and the part it guards would never print, without a word.
import { Drop } from "liquidjs";
import { errorChain, type ContentProblem } from "../model/content-error.ts";
import { nearNames } from "../model/near-miss.ts";
import { slotToken } from "../model/text-slots.ts";
import { liquidPlace, TextSetting } from "./text-settings.ts";

/** Thrown when an edition's Liquid reads `config.<name>` and the publication has no such setting. */
export class UnknownSetting extends Error {
  constructor(
    readonly setting: string,
    readonly known: string[],
  ) {
    super(`config.${setting} is not a setting of this publication`);
    this.name = "UnknownSetting";
  }
}

/** The settings of one variant, as Liquid reads them: own properties, and a refusal for any other name. */
class EditionConfig extends Drop {
  constructor(values: Record<string, unknown>) {
    super();
    Object.assign(this, values);
  }

  /** Liquid asks this for a name that is not a property (`config.lenght`, `config["x"]`, `config.size`). */
  override liquidMethodMissing(key: unknown): never {
    throw new UnknownSetting(String(key), Object.keys(this));
  }
}

/** `config` for an edition's Liquid: each text field's slot marker replaced by its TextSetting. */
export function liquidConfig(config: Record<string, unknown>): Drop {
  return new EditionConfig(
    Object.fromEntries(
      Object.entries(config).map(([name, value]) => [name, value === slotToken(name) ? new TextSetting(name) : value]),
    ),
  );
}

/** The author's problem, when a render failed on a setting the publication does not define. */
export function unknownSettingProblem(
  error: unknown,
  file: string,
  bodyLine: number,
  rendering = "",
): ContentProblem | undefined {
  const chain = errorChain(error, 12);
  const unknown = chain.find((e): e is UnknownSetting => e instanceof UnknownSetting);
  if (!unknown) return undefined;
  const { setting, known } = unknown;
  const near = nearNames(setting, known).map((k) => `\`${k}\``);
  const settings = known.length
    ? `its settings are ${known.map((k) => `\`${k}\``).join(", ")}`
    : "it has no settings (no config.fields)";
  return {
    file,
    field: `config.${setting}`,
    problem:
      `\`config.${setting}\` is read${liquidPlace(chain, bodyLine)}${rendering}, ` +
      `but the publication has no setting \`${setting}\`${near.length ? `: did you mean ${near.join(" or ")}?` : ""} ` +
      `(${settings})`,
    fix:
      (near.length ? `write config.${near[0]!.slice(1, -1)} instead, ` : "correct the name, ") +
      "or add the setting to config.fields in publication.json " +
      '(docs/settings.md: "Settings in templates"); a renamed setting must be renamed in the editions too',
  };
}
