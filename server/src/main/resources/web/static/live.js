// Pages of a RUNNING application keep their numbers current without a reload. Every few seconds this asks the JSON
// API whether anything changed (one small answer); when it did, it fetches this page again and swaps in its parts
// marked data-live-region (matched by id), then tells the page's charts through a 'sparkscope:live' event. The
// server renders and escapes everything as on a normal load; nothing here builds markup from data. When the
// application ends, the page updates once more and stops asking.
document.addEventListener('DOMContentLoaded', function () {
  var status = document.getElementById('live-status');
  if (!status || !window.fetch || !window.DOMParser) { return; }
  var url = status.getAttribute('data-live-url');
  var field = status.getAttribute('data-live-field');
  var version = status.getAttribute('data-live-version');
  var every = Math.max(1000, parseInt(status.getAttribute('data-refresh-ms'), 10) || 10000);
  var text = document.getElementById('live-text');
  var busy = false;
  var stopped = false;

  function say(message) {
    if (text) { text.textContent = message; }
  }

  function versionOf(body) {
    if (!field) { return body; }
    try {
      var json = JSON.parse(body);
      return String(json[field]) + '/' + String(json.status);
    } catch (e) {
      return body;
    }
  }

  function finished(body) {
    try { return field && JSON.parse(body).status !== 'RUNNING'; } catch (e) { return false; }
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, 'text/html');
    document.querySelectorAll('[data-live-region]').forEach(function (old) {
      var replacement = old.id ? fresh.getElementById(old.id) : null;
      if (replacement) { old.replaceWith(document.importNode(replacement, true)); }
    });
    document.dispatchEvent(new CustomEvent('sparkscope:live'));
  }

  function tick() {
    if (busy || stopped) { return; }
    busy = true;
    fetch(url, { credentials: 'same-origin', cache: 'no-store', headers: { 'Accept': 'application/json' } })
      .then(function (r) { if (!r.ok) { throw new Error('HTTP ' + r.status); } return r.text(); })
      .then(function (body) {
        var now = versionOf(body);
        var done = finished(body);
        if (version && now === version) {
          say('Live · checked ' + new Date().toLocaleTimeString());
          return null;
        }
        var first = !version;
        version = now;
        if (done) { stopped = true; }
        if (first && !done) { return null; }
        return fetch(window.location.href, { credentials: 'same-origin', cache: 'no-store' })
          .then(function (r) { if (!r.ok) { throw new Error('HTTP ' + r.status); } return r.text(); })
          .then(function (html) {
            swap(html);
            status.setAttribute('data-live-version', version);
            say(stopped ? 'The application has ended: these are its final numbers.'
              : 'Live · updated ' + new Date().toLocaleTimeString());
          });
      })
      .catch(function (e) { say('Live · could not update (' + e.message + '); trying again'); })
      .then(function () {
        busy = false;
        if (!stopped) { window.setTimeout(tick, every); }
      });
  }

  window.setTimeout(tick, every);
});
