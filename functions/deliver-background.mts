// One batch of the delivery run, handed over by the scheduled run (deliver.mts): a
// Netlify Background Function (the `-background` name), 15 minutes a batch, at
// /.netlify/functions/deliver-background. It runs only batches signed with the site's
// LITTLEPRESS_SEAL_KEY. The handler is littlepress's.
export { default, methods } from "littlepress/functions/deliver-background";
