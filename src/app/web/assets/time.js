/* global document */
// Progressive enhancement: times are rendered in UTC by the server; this shows them in the
// viewer's own time zone (the UTC time stays in the title, shown on hover).
(function () {
  var fmt;
  try {
    fmt = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  } catch (e) {
    return;
  }
  function localise() {
    var nodes = document.querySelectorAll('time[data-local]');
    for (var i = 0; i < nodes.length; i++) {
      var d = new Date(nodes[i].getAttribute('datetime'));
      if (!isNaN(d.getTime())) nodes[i].textContent = fmt.format(d);
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', localise);
  else localise();
})();
