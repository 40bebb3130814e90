// The one adapter between a platform function's entry (functions/*.mts) and
// its handler: the handler is given the runtime of where it runs (runtime.ts),
// built once per function module, and, when the function answers its faults,
// runs behind the function's error boundary (lib/edge/fault.ts).
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

/**
 * `handler` as the function `name`: a throw is logged in one line and answered
 * with `answer()`. Without `answer` (a background function, which Netlify
 * invokes again when it throws, and whose answer reaches no one) a throw is
 * left to the platform.
 */
export function platformFunction(name: string, handler: PlatformHandler, answer?: () => Response): FunctionHandler {
  const withRuntime: FunctionHandler = (req, context) => handler(req, platformRuntime(context), context);
  return answer ? withFaultBoundary(name, withRuntime, answer) : withRuntime;
}
