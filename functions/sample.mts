// GET /<slug>/sample/: the edition shown to people browsing publications
// before they subscribe (the author's pick, or the first), with default settings.
import { decideSample } from "../lib/serve/edition-route.ts";
import { editionEndpoint } from "../lib/serve/edition-endpoint.ts";

export default editionEndpoint("sample", (pub, url) => decideSample(pub, url.searchParams));
