// Progressive enhancement only: every page works without this file.
document.addEventListener('DOMContentLoaded', function () {
  // Application page: filter the "All configuration" table by key or value.
  var filter = document.getElementById('config-filter');
  var table = document.getElementById('config-table');
  if (filter && table) {
    filter.addEventListener('input', function () {
      var needle = filter.value.toLowerCase();
      table.querySelectorAll('tbody tr').forEach(function (tr) {
        tr.hidden = needle !== '' && tr.textContent.toLowerCase().indexOf(needle) < 0;
      });
    });
  }
});
