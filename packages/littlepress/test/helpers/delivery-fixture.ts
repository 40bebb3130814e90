// The set-up the delivery tests share (test/integration/deliveries,
// end-notice, delivery-batches and push): a fake sirius taking the prints,
// started once a file and emptied after each test; a state folder of each
// test's own, removed after it; and a subscriber on that fake sirius. Four
// files wrote it by hand, each a little apart (two left the requests, one
// guarded the folder): here it is written once, and the same for all.
// Why the fixture holds no store: each file keeps its own `let store`, which
// its tests read bare and one replaces mid-file, as they keep their sealKey;
// subscribeOn takes both at the call. The fixture holds what its hooks clean:
// the fake sirius (one object from the start, listening from the file's
// first beforeAll) and the folder, which a test that makes its own sets.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { Subscription } from "../../lib/model/subscription.ts";
import { fileStore, type StateStore } from "../../lib/platform/stores/state-store.ts";
import { subscriptionKey } from "../../lib/platform/stores/store-keys.ts";
import { createSubscription } from "../../lib/platform/subscribing/subscription-records.ts";
import { printKeysToStart, type FakePrintKeys } from "./print-keys.ts";

export interface DeliveryFixture {
  /** The fake sirius: its url, allowed and policy are set from the file's first beforeAll on. */
  readonly sirius: FakePrintKeys;
  /** The state folder removed after each test, the last one made (undefined: none yet); a test may set its own. */
  folder: string | undefined;
  /** A new temporary folder, this test's, and a file store in it. */
  freshStore(): StateStore;
}

/**
 * Registers the file's hooks (call it at the top of a test file, before its
 * own beforeAll, which may then read the fake sirius's url): the fake sirius
 * listens before all and closes after all; after each test its prints,
 * requests and printers are cleared and the test's folder removed.
 * `name` names the temporary folders: littlepress-<name>-….
 */
export function deliveryFixture(name: string): DeliveryFixture {
  const { sirius, listen } = printKeysToStart();
  const fixture: DeliveryFixture = {
    sirius,
    folder: undefined,
    freshStore: () => {
      fixture.folder = mkdtempSync(path.join(tmpdir(), `littlepress-${name}-`));
      return fileStore(fixture.folder);
    },
  };
  beforeAll(listen);
  afterAll(() => sirius.close());
  afterEach(() => {
    sirius.prints.length = 0;
    sirius.requests.length = 0;
    sirius.printers.clear();
    sirius.renderMs = undefined;
    sirius.peakRendering = 0;
    if (fixture.folder) rmSync(fixture.folder, { recursive: true, force: true });
  });
  return fixture;
}

/** A subscription for subscribeOn to make: its printer online and no settings unless given. */
export interface Subscriber {
  slug: string;
  zone: string;
  hour: number;
  /** When it subscribed. */
  at: Date;
  settings?: [string, string][];
  online?: boolean;
  /** The deliveries it has had, written over the subscription once made (not given: 0, as made). */
  count?: number;
}

/** A printer on the fake sirius, and a subscription in `store`, sealed with `sealKey`, that prints on it. */
export async function subscribeOn(
  on: { sirius: FakePrintKeys; store: StateStore; sealKey: Buffer },
  s: Subscriber,
): Promise<{ key: string; id: string }> {
  const key = randomBytes(8).toString("hex");
  const printer = `Printer ${key.slice(0, 4)}`;
  on.sirius.printers.set(key, { name: printer, owner: "Ada", online: s.online ?? true });
  const { subscription } = await createSubscription(on.store, on.sealKey, {
    slug: s.slug,
    printKey: new URL(on.sirius.keyUrl(key)),
    printer,
    zone: s.zone,
    hour: s.hour,
    settings: s.settings ?? [],
    at: s.at,
  });
  if (s.count !== undefined) {
    const stored = (await on.store.get<Subscription>(subscriptionKey(subscription.id)))!;
    await on.store.replace(
      subscriptionKey(subscription.id),
      { ...stored.value, deliveryCount: s.count },
      stored.version,
    );
  }
  return { key, id: subscription.id };
}
