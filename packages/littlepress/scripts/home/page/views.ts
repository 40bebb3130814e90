// The page's HTML, server-rendered: every text a printer, a publication or a
// visitor chose is escaped; every form posts its CSRF token. The page loads
// nothing but itself and its own pictures (home-app.ts's Content-Security-Policy).
import { escapeHtml as e } from "../../../lib/model/html-escape.ts";
import type { HistoryEntry, SubscriptionRow } from "../home-jobs.ts";
import { shownAddress, type HomePrinterRow } from "../printers.ts";

const STYLE = `body{font:16px/1.4 system-ui,sans-serif;max-width:46rem;margin:1rem auto;padding:0 1rem}
.card{border:1px solid #ccc;border-radius:6px;padding:.7rem 1rem;margin:.8rem 0}.err{color:#a00}
.ok{color:#060}label{display:block;margin:.4rem 0}
img.print{border:1px solid #ddd;max-width:100%;image-rendering:pixelated}
form.inline{display:inline}
table{border-collapse:collapse}td,th{padding:.2rem .5rem;text-align:left;vertical-align:top}`;

export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${e(title)} · littlepress</title><style>${STYLE}</style>
<header><a href="/">Printers</a></header><main><h1>${e(title)}</h1>${body}</main></html>`;
}

/** A form posting to `action` with its CSRF token. */
export const form = (action: string, csrf: string, inner: string, cls = "") =>
  `<form method="post" action="${e(action)}"${cls ? ` class="${cls}"` : ""}>` +
  `<input type="hidden" name="csrf" value="${e(csrf)}">${inner}</form>`;

const problem = (text?: string) => (text ? `<p class="err" role="alert">${e(text)}</p>` : "");

export function setupPage(csrf: string, error?: string): string {
  return layout(
    "Set up your print server",
    `${problem(error)}<p>Choose the passphrase the household logs in with. The setup code is in the server's log.</p>` +
      form(
        "/setup",
        csrf,
        `<label>Setup code <input name="code" autocomplete="off" required></label>
<label>Passphrase <input type="password" name="passphrase" minlength="8" required></label>
<label>Passphrase again <input type="password" name="again" minlength="8" required></label><button>Set it</button>`,
      ),
  );
}

export function loginPage(csrf: string, error?: string, paired?: string): string {
  return layout(
    "Log in",
    `${problem(error)}${paired ? `<p class="ok">${e(paired)}</p>` : ""}` +
      form(
        "/login",
        csrf,
        `<label>Passphrase <input type="password" name="passphrase" required></label><button>Log in</button>`,
      ) +
      `<h2>No passphrase at hand?</h2>` +
      form("/pairing", csrf, `<button>Print a pairing code on the first printer</button>`) +
      form(
        "/login",
        csrf,
        `<label>Pairing code <input name="pairing" inputmode="numeric" autocomplete="off" required></label>
<button>Log in</button>`,
      ),
  );
}

const status = (p: HomePrinterRow) =>
  e(p.status ?? "not asked yet") +
  (p.last_seen ? `, last seen ${e(p.last_seen.slice(0, 16).replace("T", " "))} UTC` : "");

export function homePage(csrf: string, printers: HomePrinterRow[], error?: string): string {
  const cards = printers.map(
    (p) => `<section class="card" data-printer="${e(p.id)}"><h2><a href="/printers/${e(p.id)}">${e(p.name)}</a></h2>
<p>${p.kind === "key" ? "Little Printer" : `ESC/POS, ${p.width} dots`}
 · <code>${e(shownAddress(p))}</code> · status: <span class="status">${status(p)}</span></p>
${form(`/printers/${p.id}/status`, csrf, "<button>Ask its status</button>", "inline")}
${form(`/printers/${p.id}/test`, csrf, "<button>Test print</button>", "inline")}
${form(
  `/printers/${p.id}/rename`,
  csrf,
  `<input name="name" value="${e(p.name)}" aria-label="New name">
<button>Rename</button>`,
  "inline",
)}
${form(`/printers/${p.id}/remove`, csrf, "<button>Remove</button>", "inline")}</section>`,
  );
  const add = form(
    "/printers",
    csrf,
    `<label>Name <input name="name" required></label>
<label>Address <input name="address" required size="40"
 placeholder="tcp://192.168.1.50:9100 or https://device.li/…"></label>
<label>Paper <select name="width">
<option value="384">58 mm (384 dots)</option><option value="576">80 mm (576 dots)</option></select></label>
<button>Add printer</button>`,
  );
  return layout(
    "Printers",
    `${problem(error)}${cards.join("") || "<p>No printers yet.</p>"}<h2>Add a printer</h2>${add}`,
  );
}

function subscriptionCard(csrf: string, s: SubscriptionRow): string {
  const when = `${String(s.hour).padStart(2, "0")}:00 ${e(s.zone)}`;
  const ended = s.ended ? (JSON.parse(s.ended) as { reason: string }).reason : undefined;
  const actions = ended
    ? form(`/subscriptions/${s.id}/resubscribe`, csrf, "<button>Subscribe again (from edition 0)</button>", "inline")
    : `<a href="/subscriptions/${e(s.id)}/preview">See the next edition</a> ` +
      form(`/subscriptions/${s.id}/print-now`, csrf, "<button>Print now</button>", "inline");
  return `<section class="card" data-subscription="${e(s.id)}"><h3>${e(s.name)}</h3>
<p>${ended ? `<strong>Ended:</strong> ${e(ended)}` : `Every day at ${when}`}
 · deliveries so far: ${s.delivery_count}</p>
${actions} ${form(`/subscriptions/${s.id}/remove`, csrf, "<button>Unsubscribe</button>", "inline")}</section>`;
}

function historyRows(history: (HistoryEntry & { id: number })[]): string {
  if (!history.length) return "<p>Nothing printed yet.</p>";
  const rows = history.map(
    (h) => `<tr class="history" data-outcome="${e(h.outcome)}"><td>${e(h.at.slice(0, 16).replace("T", " "))} UTC</td>
<td>${e(h.job)}: ${e(h.what)}${h.etag ? `<br>ETag <code>${e(h.etag)}</code>` : ""}</td>
<td><strong>${e(h.outcome)}</strong><br>${e(h.detail)}</td>
<td>${h.picture ? `<img class="print" src="/pictures/${h.id}.png" alt="what was sent" width="192">` : ""}</td></tr>`,
  );
  return `<table><tr><th>When</th><th>What</th><th>Outcome</th><th>Sent</th></tr>${rows.join("")}</table>`;
}

export function printerPage(
  csrf: string,
  p: HomePrinterRow,
  subs: SubscriptionRow[],
  history: (HistoryEntry & { id: number })[],
  error?: string,
): string {
  const paste = form(
    `/printers/${p.id}/publication`,
    csrf,
    `<label>Publication URL <input name="url" type="url" required size="40" placeholder="https://…/"></label>
<label><input type="checkbox" name="home" value="1"> It is on my home network (allow a private address)</label>
<button>Read it</button>`,
  );
  return layout(
    p.name,
    `${problem(error)}<p>Status: ${status(p)}</p>
<h2>Subscriptions</h2>${subs.map((s) => subscriptionCard(csrf, s)).join("") || "<p>None yet.</p>"}
<h2>Add a publication</h2>${paste}<h2>History</h2>${historyRows(history)}`,
  );
}
