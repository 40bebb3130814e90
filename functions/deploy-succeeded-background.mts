// The push run of a deploy: Netlify runs it once a deploy is live (its file
// name is the deploy-succeeded event's; a build hook starts a deploy), as a
// Background Function (the `-background` suffix), 15 minutes, so a push
// edition prints at once rather than with the next scheduled run. It prints
// only what that run would. The handler is littlepress's.
export { default, methods } from "littlepress/functions/deploy-succeeded-background";
