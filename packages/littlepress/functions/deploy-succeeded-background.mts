// The push run of a deploy, as soon as it is live (lib/platform/pushing/deploy-push.ts):
// Netlify runs a function of this name on its deploy-succeeded event (a build
// hook starts a deploy), as a Background Function (the `-background` suffix),
// 15 minutes. It has no path, and the local server gives it no route.
export { deployPush as default } from "../lib/platform/pushing/deploy-push.ts";
export const methods = ["POST"];
