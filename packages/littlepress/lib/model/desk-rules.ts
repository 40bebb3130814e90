// The model's rules that the desk's browser JavaScript uses, in one module: the
// build bundles it for the browser as /_desk/model.js (lib/build/desk.ts), and
// the desk imports it from there ("./model.js"), so the simulator sends the
// same local_delivery_time as `npm run check` and shows the same paper and
// dates as the build. layouts/desk/assets/model.d.ts gives it these types.
export { addDays, dateText, isIsoDate } from "./dates.ts";
export { editionAction, editionParams, lastEtagAfter, type EditionAction } from "./delivery-rules.ts";
export { localDeliveryTime, type LocalDeliveryTime } from "./delivery-time.ts";
export { PAPER_WIDTH_PX } from "./paper.ts";
export { isTimeZone, todayIn } from "./time-zones.ts";
export { plural } from "./words.ts";
