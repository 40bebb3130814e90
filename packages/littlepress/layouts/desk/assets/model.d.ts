// The types of ./model.js, which the build bundles from lib/model/desk-rules.ts
// into the site's /_desk/ (lib/build/desk.ts): the desk's JavaScript is checked
// against the model's own types (npm run typecheck), and vitest resolves
// ./model.js to the same source (vitest.config.ts).
export * from "../../../lib/model/desk-rules.ts";
