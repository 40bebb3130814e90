// The fonts PhantomJS draws with: sirius's, on every machine. sirius runs in
// python:3.7.4-slim-buster with fontconfig, whose only fonts are DejaVu's core
// six (fonts-dejavu-core 2.37: Sans, Sans Mono and Serif, each roman and
// bold), so Helvetica, Arial and sans-serif all resolve to DejaVu Sans, and an
// italic is the roman slanted. The user's own fonts must not change a print,
// so PhantomJS is given a fontconfig file of ours (FONTCONFIG_FILE) that reads
// none of the machine's configuration and no font folder but the package
// dejavu-fonts-ttf's (DejaVu 2.37, the version sirius has), keeps its core six,
// and keeps its cache in the renderer's own folder (nothing in $HOME).
import { createRequire } from "node:module";
import path from "node:path";
import { escapeHtml } from "../../lib/model/html-escape.ts";

/** The font files sirius has, in dejavu-fonts-ttf's ttf/ folder. */
export const SIRIUS_FONTS = [
  "DejaVuSans.ttf",
  "DejaVuSans-Bold.ttf",
  "DejaVuSansMono.ttf",
  "DejaVuSansMono-Bold.ttf",
  "DejaVuSerif.ttf",
  "DejaVuSerif-Bold.ttf",
] as const;

/** The folder of DejaVu's TrueType files, in the installed package. */
export function dejavuFolder(): string {
  const manifest = createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json");
  return path.join(path.dirname(manifest), "ttf");
}

/** Families a page names that are one of the generic three, as fontconfig's usual aliases make them. */
const GENERIC: Record<string, readonly string[]> = {
  "DejaVu Sans": ["sans-serif", "Helvetica", "Arial", "Helvetica Neue", "Verdana", "system-ui"],
  "DejaVu Serif": ["serif", "Times", "Times New Roman", "Georgia"],
  "DejaVu Sans Mono": ["monospace", "Courier", "Courier New", "Menlo", "Consolas", "Monaco"],
};

/** The fontconfig file (see the top of this file); `cache` is a folder of the renderer's own. */
export function fontsConf(cache: string, fonts = dejavuFolder()): string {
  const text = (s: string) => escapeHtml(s);
  const aliases = Object.entries(GENERIC).flatMap(([family, names]) =>
    names.map(
      (name) =>
        `  <alias binding="same"><family>${text(name)}</family><prefer><family>${family}</family></prefer></alias>`,
    ),
  );
  const kept = SIRIUS_FONTS.map((file) => `<glob>${text(path.join(fonts, file))}</glob>`).join("");
  return (
    `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${text(fonts)}</dir>
  <cachedir>${text(cache)}</cachedir>
  <selectfont><acceptfont>${kept}</acceptfont><rejectfont><glob>*</glob></rejectfont></selectfont>
${aliases.join("\n")}
  <!-- fontconfig's last resort, as its sans-serif default. (QtWebKit itself falls back from a family no
       font has to its standard font, Times: DejaVu Serif, as on sirius.) -->
  <match target="pattern"><edit name="family" mode="append_last"><string>DejaVu Sans</string></edit></match>
  <!-- Debian's defaults: grey antialiasing, slight hinting. -->
  <match target="font">
    <edit name="antialias" mode="assign"><bool>true</bool></edit>
    <edit name="hinting" mode="assign"><bool>true</bool></edit>
    <edit name="hintstyle" mode="assign"><const>hintslight</const></edit>
    <edit name="rgba" mode="assign"><const>none</const></edit>
  </match>
  <!-- No italic font: an italic is the roman slanted. -->
  <match target="font">
    <test name="slant" target="pattern" compare="not_eq"><const>roman</const></test>
    <test name="slant" compare="eq"><const>roman</const></test>
    <edit name="matrix" mode="assign"><times><name>matrix</name><matrix><double>1</double><double>0.2</double>` +
    `<double>0</double><double>1</double></matrix></times></edit>
    <edit name="slant" mode="assign"><const>oblique</const></edit>
  </match>
</fontconfig>
`
  );
}
