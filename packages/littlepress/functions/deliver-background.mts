// One batch of a delivery run, handed over by the scheduled run (functions/deliver.mts):
// a Netlify Background Function (the `-background` suffix), 15 minutes a batch, at
// /.netlify/functions/deliver-background. It runs only batches signed with the site's
// key (lib/platform/delivering/batches.ts).
export { deliverBackground as default } from "../lib/platform/delivering/batches.ts";
export const methods = ["POST"];
