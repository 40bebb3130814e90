// Synthetic content for the benchmark: three publications whose sizes add up
// to the requested number of editions, written as an author would write them,
// plus the facts the load and cold-start runs need to ask for them (which keys
// exist, which day is "today"). Nothing here reads a built site.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The publications of every synthetic site. */
export const SERIAL = "serial"; // delivery_count, ends: true
export const DAILY = "daily"; // local_date, Monday to Saturday (Sundays are 204)
export const CHOICES = "choices"; // delivery_count, a 3-option select and a text field printed as {{ config.name }}

/** Share of the editions in each publication (the rest go to SERIAL). */
export const MIX = { daily: 0.1, choices: 0.05 } as const;
export const LANGS = ["en", "fr", "es"] as const;
/** How the choices publication's select names each language. */
const LANG_LABELS: Record<(typeof LANGS)[number], string> = { en: "English", fr: "Français", es: "Español" };

export interface SyntheticSite {
  dir: string;
  editions: number;
  /** Pages littlepress renders: every edition once, the choices' ones once per option. */
  pages: number;
  serial: { count: number };
  daily: { count: number; dates: string[]; gaps: string[]; today: string };
  choices: { count: number };
}

/** How the editions are split for a given total (also used to describe the mix in the report). */
export function splitEditions(total: number): { serial: number; daily: number; choices: number } {
  const daily = Math.max(1, Math.round(total * MIX.daily));
  const choices = Math.max(1, Math.round(total * MIX.choices));
  return { serial: total - daily - choices, daily, choices };
}

/** Writes `total` editions under `dir` (content/<slug>/…); deterministic for a given total and day. */
export function generateSite(dir: string, total: number, today = new Date()): SyntheticSite {
  const split = splitEditions(total);
  const text = new TextMaker(total);

  const serialDir = publicationDir(dir, SERIAL, {
    name: "Serial",
    description: "A long synthetic serial, one part a day. <em>Benchmark content.</em>",
    delivered_on: "Every day until the story ends",
    editions: { by: "delivery_count", ends: true },
  });
  for (let n = 0; n < split.serial; n++) {
    writeFileSync(
      path.join(serialDir, `${n}.md`),
      `---\nnumber: ${n}\ntitle: "Part ${n + 1}: ${text.title()}"\n---\n${text.paragraphs(4, 330)}`,
    );
  }

  const dailyDir = publicationDir(dir, DAILY, {
    name: "Daily",
    description: "A synthetic almanac. <strong>Monday to Saturday.</strong>",
    delivered_on: "Monday to Saturday",
    editions: { by: "local_date" },
  });
  // Monday to Saturday, ending a little after today (a month at most),
  // so today (or the Saturday before it) has an edition.
  const dates: string[] = [];
  const gaps: string[] = [];
  const end = addDays(utcDay(today), Math.min(30, Math.floor(split.daily / 10)));
  for (let d = end; dates.length < split.daily; d = addDays(d, -1)) (d.getUTCDay() === 0 ? gaps : dates).push(iso(d));
  dates.reverse();
  gaps.reverse();
  if (!gaps.length) gaps.push(iso(addDays(new Date(`${dates[0]}T00:00:00Z`), -1))); // before the first: 204 too
  for (const date of dates) {
    writeFileSync(
      path.join(dailyDir, `${date}.md`),
      `---\ndate: ${date}\ntitle: "${text.title()}"\n---\n${text.paragraphs(4, 330)}`,
    );
  }
  let todayKey = iso(utcDay(today));
  const dated = new Set(dates);
  while (!dated.has(todayKey) && todayKey > dates[0]!) todayKey = iso(addDays(new Date(`${todayKey}T00:00:00Z`), -1));

  const choicesDir = publicationDir(dir, CHOICES, {
    name: "Choices",
    description: "A greeting in your language, with your name on it.",
    delivered_on: "Every day",
    editions: { by: "delivery_count", ends: true },
    config: {
      fields: [
        {
          type: "select",
          name: "lang",
          label: "Language",
          options: LANGS.map((l) => [LANG_LABELS[l], l]),
          default: "en",
        },
        { type: "text", name: "name", label: "Your name", required: false, default: "friend", max_length: 40 },
      ],
    },
  });
  for (let n = 0; n < split.choices; n++) {
    const body = [
      `{% if config.lang == "fr" %}\nBonjour, {{ config.name }} !\n\n${text.paragraphs(2, 220)}`,
      `{% elsif config.lang == "es" %}\n¡Hola, {{ config.name }}!\n\n${text.paragraphs(2, 220)}`,
      `{% else %}\nHello, {{ config.name }}!\n\n${text.paragraphs(2, 220)}`,
      "{% endif %}\n",
    ].join("");
    writeFileSync(path.join(choicesDir, `${n}.md`), `---\nnumber: ${n}\ntitle: "Day ${n + 1}"\n---\n${body}`);
  }

  return {
    dir,
    editions: total,
    pages: split.serial + split.daily + split.choices * LANGS.length,
    serial: { count: split.serial },
    daily: { count: split.daily, dates, gaps, today: todayKey },
    choices: { count: split.choices },
  };
}

/**
 * Writes content/<slug>/publication.json (every synthetic publication has the same owner);
 * returns its editions folder.
 */
function publicationDir(dir: string, slug: string, publication: object): string {
  mkdirSync(path.join(dir, slug, "editions"), { recursive: true });
  const settings = { ...publication, owner_email: "bench@example.com" };
  writeFileSync(path.join(dir, slug, "publication.json"), JSON.stringify(settings, null, 2) + "\n");
  return path.join(dir, slug, "editions");
}

const utcDay = (d: Date) => new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()));
const addDays = (d: Date, days: number) => new Date(d.getTime() + days * 86_400_000);
const iso = (d: Date) => d.toISOString().slice(0, 10);

/** A seeded pseudo-random generator (mulberry32): the same content for the same seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the a of and to in on by with under over after before morning evening harbour lighthouse keeper cat winter " +
  "storm gale window lantern rope boat island tide shore gull kettle bread letter road hill field orchard river " +
  "bridge market street bell clock candle chair table garden frost snow rain wind cloud moon star sun shadow light " +
  "quiet slow small old new warm cold bright dark green grey blue long short early late soft loud careful patient " +
  "kind brave tired hungry walked listened waited carried opened closed found lost remembered noticed painted " +
  "mended counted whistled watched folded wrote read sang slept woke climbed crossed followed gathered planted " +
  "baked poured swept climbed returned"
).split(" ");

/** Varied prose: sentences of common words, some emphasis, now and then a quotation. */
export class TextMaker {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = random(seed);
  }
  private word(): string {
    return WORDS[Math.floor(this.next() * WORDS.length)]!;
  }
  title(): string {
    const words = Array.from({ length: 2 + Math.floor(this.next() * 3) }, () => this.word());
    return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ");
  }
  private sentence(): string {
    const words = Array.from({ length: 6 + Math.floor(this.next() * 10) }, () => this.word());
    const r = this.next();
    if (r < 0.15) words[1] = `*${words[1]}*`;
    else if (r < 0.22) words[2] = `**${words[2]}**`;
    const s = words.join(" ");
    return s[0]!.toUpperCase() + s.slice(1) + (this.next() < 0.1 ? "?" : ".");
  }
  /** `count` paragraphs of about `chars` characters each. */
  paragraphs(count: number, chars: number): string {
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      let p = "";
      while (p.length < chars) p += (p ? " " : "") + this.sentence();
      out.push(this.next() < 0.1 ? `> ${p}` : p);
    }
    return out.join("\n\n") + "\n";
  }
}
