// Writes history rows into a home store as fast as it can, one transaction
// each, saying each committed row's number on stdout, until it is killed:
// node --import tsx test/helpers/home-writer.ts <store file>
import { openHomeDb } from "../../scripts/home/home-db.ts";
import { addHistory } from "../../scripts/home/home-jobs.ts";

const db = openHomeDb(process.argv[2]!);
const picture = Buffer.alloc(20_000, 7); // a picture's worth of bytes, so a kill lands mid-write often
for (let n = 1; ; n++) {
  db.transaction(() =>
    addHistory(db, {
      printer_id: "p",
      subscription_id: null,
      job: `row ${n}`,
      at: new Date().toISOString(),
      what: "a row",
      etag: null,
      outcome: "printed",
      detail: String(n),
      picture,
    }),
  )();
  process.stdout.write(`${n}\n`);
}
