// Text settings in Liquid (lib/build/text-settings.ts), on the real liquidjs
// that Eleventy renders editions with: printed as they are they leave their
// slot; any use that needs the value at build time (a condition, however
// spaced, a comparison, a filter, a loop, its size) is refused, naming the setting.
import { Liquid } from "liquidjs";
import { describe, expect, it } from "vitest";
import { errorChain } from "../../lib/model/content-error.ts";
import { slotToken } from "../../lib/model/text-slots.ts";
import { liquidConfig } from "../../lib/build/edition-config.ts";
import { printTextSetting, TextSettingUse, textSettingProblem } from "../../lib/build/text-settings.ts";

// As lib/build/edition-engines.ts sets up Eleventy's Liquid for editions.
const liquid = new Liquid({ outputEscape: printTextSetting, lenientIf: true, strictVariables: true });
const config = liquidConfig({ pet_name: slotToken("pet_name"), lang: "fr" });
const PET = slotToken("pet_name");

const render = (template: string) => liquid.parseAndRender(template, { config, title: "T" });

async function refusal(template: string): Promise<TextSettingUse | undefined> {
  try {
    await render(template);
    return undefined;
  } catch (error) {
    return errorChain(error, 12).find((e): e is TextSettingUse => e instanceof TextSettingUse);
  }
}

describe("a text setting in Liquid while an edition is built", () => {
  it.each([
    ["{{ config.pet_name }}", PET],
    ["{{config.pet_name}}", PET],
    ['<p title="{{ config.pet_name }}">', `<p title="${PET}">`],
    ["{%- assign n = config.pet_name -%}Hi {{ n }}", `Hi ${PET}`],
    ['{% if config.lang == "fr" %}Bonjour {{ config.pet_name }}{% endif %}', `Bonjour ${PET}`],
    ["{{ title | upcase }} {{ config.lang | upcase }}", "T FR"],
  ])("prints %j as its slot", async (template, expected) => {
    expect(await render(template)).toBe(expected);
  });

  it.each([
    '{% if config.pet_name == "Rex" %}good dog{% endif %}',
    "{%if config.pet_name=='Rex'%}good dog{%endif%}",
    '{%- if config.pet_name   ==   "Rex" -%}good dog{%- endif -%}',
    '{% if "Rex" == config.pet_name %}good dog{% endif %}',
    '{% if config.pet_name != "Rex" %}other{% endif %}',
    '{% if config.pet_name > "M" %}late{% endif %}',
    "{% if config.pet_name == empty %}none{% endif %}",
    "{% if blank == config.pet_name %}none{% endif %}",
    "{% if config.pet_name %}named{% endif %}",
    "{% unless config.pet_name %}unnamed{% endunless %}",
    '{% if title == "X" %}x{% elsif config.pet_name == "Rex" %}rex{% endif %}',
    "{% if config.pet_name and title %}both{% endif %}",
    "{% if title and config.pet_name %}both{% endif %}",
    "{% if config.pet_name or title %}either{% endif %}",
    '{% if config.pet_name contains "R" %}r{% endif %}',
    '{% if "Rex" contains config.pet_name %}r{% endif %}',
    '{% case config.pet_name %}{% when "Rex" %}rex{% endcase %}',
    '{% case "Rex" %}{% when config.pet_name %}rex{% endcase %}',
    "{{ config.pet_name.size }}",
    "{{ config.pet_name.first }}",
    "{{ config.pet_name | size }}",
    "{{ config.pet_name | upcase }}",
    '{{ config.pet_name | default: "friend" }}',
    '{{ config.pet_name | append: "!" }}',
    "{% for c in config.pet_name %}{{ c }}{% endfor %}",
    "{% assign n = config.pet_name | downcase %}{{ n }}",
    '{% assign n = config.pet_name %}{% if n == "Rex" %}rex{% endif %}',
    '{% liquid\n  if config.pet_name == "Rex"\n    echo "rex"\n  endif\n%}',
  ])("refuses %j, naming the setting", async (template) => {
    const use = await refusal(template);
    expect(use?.setting).toBe("pet_name");
  });

  it("leaves select values and other data alone", async () => {
    expect(await render('{% if config.lang == "fr" and title.size == 1 %}oui{% endif %}')).toBe("oui");
  });
});

describe("textSettingProblem", () => {
  it("names the file, the setting, the line in the author's file, the tag and the fix", async () => {
    let error: unknown;
    await render('Hello\n{% if config.pet_name == "Rex" %}good dog{% endif %}').catch((e: unknown) => (error = e));
    const problem = textSettingProblem(error, "content/pet/editions/0.md", 4);
    expect(problem).toEqual({
      file: "content/pet/editions/0.md",
      field: "config.pet_name",
      problem: expect.stringContaining(
        'is compared at line 5, column 1 ({% if config.pet_name == "Rex" %}): ' +
          "a text setting is filled in after the page is built, so it cannot decide what the page shows",
      ) as string,
      fix: expect.stringContaining("use a select setting for choices") as string,
    });
  });

  it("is undefined for any other error", () => {
    expect(textSettingProblem(new Error("line:1, col:1"), "f.md", 1)).toBeUndefined();
  });
});
