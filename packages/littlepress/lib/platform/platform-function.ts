// The one adapter between a platform function's entry (functions/*.mts) and
// its handler: the handler is given the runtime of where it runs (runtime.ts),
// built once per function module, and runs behind the function's error
// boundary (lib/edge/fault.ts). Apart from runtime.ts, so that a function
// without that boundary (deliver-background, which Netlify invokes again when
// it throws) carries none of it.
import { withFaultBoundary } from "../edge/fault.ts";
import type { FunctionHandler } from "../edge/http.ts";
import type { ServeContext } from "../edge/site-folder.ts";
import { platformRuntime, type PlatformRuntime } from "./runtime.ts";

/** A platform function's handler: the request, the runtime, and the context for what is Netlify's own (ip, deploy). */
export type PlatformHandler = (
  req: Request,
  runtime: PlatformRuntime,
  context: ServeContext | undefined,
) => Promise<Response>;

/** `handler` as the function `name`: a throw is logged in one line and answered with `answer()`. */
export function platformFunction(name: string, handler: PlatformHandler, answer: () => Response): FunctionHandler {
  return withFaultBoundary(name, (req, context) => handler(req, platformRuntime(context), context), answer);
}
