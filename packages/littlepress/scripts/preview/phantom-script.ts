// The script PhantomJS runs for one render (phantom.ts writes it beside the
// page and starts `phantomjs <script> <job.json>`). It does what sirius's
// selenium driver does (sirius/coding/image_encoding.py): a window 384 x 5,
// open the page from its file, and once it has loaded take the screenshot of
// the whole page. And it holds the page to the allow-list: every request but
// the page's own file goes to our gate (phantom-gate.ts) instead of where it
// was going, which fetches what may be fetched and refuses the rest; any other
// scheme is refused here, no window opens, and after the page's own load the
// page may not navigate. (What does not pass here, a WebSocket, is refused by
// the page's policy: phantom.ts.) It is ES5, PhantomJS's JavaScript, and kept as text so that the
// package ships it inside its compiled code.
export const PHANTOM_SCRIPT = String.raw`
var system = require("system");
var fs = require("fs");
var job = JSON.parse(fs.read(system.args[1]));
var page = require("webpage").create();
var result = { refused: [], errors: [] };
var finished = false;

function finish(status) {
  if (finished) return;
  finished = true;
  result.status = status;
  system.stdout.write(JSON.stringify(result) + "\n");
  phantom.exit(0);
}

page.viewportSize = { width: job.width, height: 5 };
page.settings.resourceTimeout = job.timeoutMs;
page.settings.localToRemoteUrlAccessEnabled = false;
page.settings.webSecurityEnabled = true;
page.settings.javascriptCanOpenWindows = false;
page.onConsoleMessage = function () {};
page.onAlert = function () {};
page.onConfirm = function () { return false; };
page.onPrompt = function () { return null; };
page.onFilePicker = function () { return ""; };
page.onError = function (message) { if (result.errors.length < 20) result.errors.push(String(message)); };
page.onNavigationRequested = function (url, type, willNavigate, main) {
  // The page's own load is the one navigation: after it, the page stays (a meta refresh, location =, a form).
  if (main && url === job.page) page.navigationLocked = true;
};
// A window the page opens anyway (a link's target, say) loads nothing and is closed.
page.onPageCreated = function (popup) {
  popup.navigationLocked = true;
  popup.onResourceRequested = function (request, network) {
    refuse(request.url);
    network.abort();
  };
  setTimeout(function () { popup.close(); }, 0);
};
function refuse(url) {
  if (result.refused.length < 200) result.refused.push(url.slice(0, 2000));
}
page.onResourceRequested = function (request, network) {
  var url = request.url;
  if (url === job.page || url.indexOf("data:") === 0) return;
  if (/^https?:/i.test(url) && request.method === "GET") {
    network.changeUrl(job.gate + encodeURIComponent(url));
    return;
  }
  refuse(url);
  network.abort();
};

page.open(job.page, function (status) {
  var size = page.evaluate(function () {
    var root = document.documentElement, body = document.body;
    return {
      height: Math.max(root.scrollHeight, body ? body.scrollHeight : 0),
      width: Math.max(root.scrollWidth, body ? body.scrollWidth : 0)
    };
  });
  result.height = size.height;
  result.width = size.width;
  // sirius screenshots the whole page and keeps its top 10,000 rows: past them, only those are drawn.
  if (size.height > job.maxHeight) page.clipRect = { top: 0, left: 0, width: job.width, height: job.maxHeight };
  page.render(job.png, { format: "png" });
  finish(status);
});
`;
