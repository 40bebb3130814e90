// Every check the checker runs, by stable id, with the one-line rule it
// enforces. Ids are what --json consumers and the tests match on; the order
// here is the order of the report.
export const CHECKS = {
  "meta.reachable": "meta.json answers 200",
  "meta.json": "meta.json is a JSON object",
  "meta.content-type": "served as application/json",
  "meta.strings": "required text fields are strings",
  "meta.flags": "flags are JSON booleans",
  "meta.description": "description uses only <strong>, <em>, <br>, <a>",
  "meta.config": "config.fields is well formed",
  "meta.config-names": "config field names are unique",
  "meta.icon": "icon.png is a 55x55 PNG",
  "meta.icon-drawn": "icon.png is not blank once printed (laid on white paper, dithered to dots)",
  "subscribe.accepts-valid": 'accepts a valid config with {"valid": true}',
  "subscribe.rejects-invalid": 'rejects an invalid config with {"valid": false}',
  "subscribe.error-texts": "errors is an array of texts",
  "subscribe.empty-config": "survives an empty config",
  "subscribe.multipart": "answers a multipart post the same way",
  "edition.bare": "edition/ with no parameters shows a default edition",
  "edition.no-slash": "edition without the trailing slash answers too",
  "edition.status": "answers only 200, 204 or 410",
  "edition.etag-quoted": "a 200 has a quoted ETag",
  "edition.charset": "a 200's Content-Type names a charset",
  "edition.html-body": "a 200 has an HTML body",
  "edition.no-body": "a 204 or 410 has no body",
  "edition.bad-values": "odd and broken parameters get 200, 204 or 410 too",
  "edition.escapes": "settings holding markup are not echoed into the page as markup",
  "edition.etag-stable": "the same request twice gives the same ETag",
  "edition.etag-daily": "identical content on two deliveries still gets two ETags",
  "edition.etag-changes": "changed content gets a new ETag",
  "edition.after-410": "after 410 the subscription stays ended",
  "edition.resubscribe": "a fresh subscription after 410 gets 200 or 204",
} as const;

export type CheckId = keyof typeof CHECKS;

export const CHECK_IDS = Object.keys(CHECKS) as CheckId[];
