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

  // SQL plan graph: zoom with the buttons (or Ctrl + wheel), pan by dragging; the drawing is scaled by its size
  // (its viewBox stays), so the box's own scroll bars still reach every part of it.
  var graph = document.getElementById('plan-graph');
  var tools = document.getElementById('plan-tools');
  var svg = graph && graph.querySelector('svg');
  if (svg && tools) {
    var w0 = parseFloat(svg.getAttribute('width'));
    var h0 = parseFloat(svg.getAttribute('height'));
    var scale = 1;
    var level = tools.querySelector('.zoom-level');
    var zoom = function (to) {
      // keep the point at the middle of the box where it is
      var midX = (graph.scrollLeft + graph.clientWidth / 2) / scale;
      var midY = (graph.scrollTop + graph.clientHeight / 2) / scale;
      scale = Math.min(4, Math.max(0.05, to));
      svg.setAttribute('width', (w0 * scale).toFixed(1));
      svg.setAttribute('height', (h0 * scale).toFixed(1));
      graph.scrollLeft = midX * scale - graph.clientWidth / 2;
      graph.scrollTop = midY * scale - graph.clientHeight / 2;
      level.textContent = Math.round(scale * 100) + ' %';
    };
    tools.hidden = false;
    tools.addEventListener('click', function (e) {
      var b = e.target.closest('button');
      if (!b) {
        return;
      }
      var how = b.getAttribute('data-zoom');
      if (how === 'in') {
        zoom(scale * 1.25);
      } else if (how === 'out') {
        zoom(scale / 1.25);
      } else if (how === 'fit') {
        var room = graph.clientHeight > 40 ? graph.clientHeight - 4 : h0;
        zoom(Math.min(1, (graph.clientWidth - 4) / w0, room / h0));
      } else {
        zoom(1);
      }
    });
    graph.addEventListener('wheel', function (e) {
      if (e.ctrlKey) {
        e.preventDefault();
        zoom(e.deltaY < 0 ? scale * 1.1 : scale / 1.1);
      }
    }, {passive: false});
    var drag = null;
    graph.addEventListener('mousedown', function (e) {
      // a click on an operator still opens its row
      if (e.button !== 0 || e.target.closest('a')) {
        return;
      }
      drag = {x: e.clientX, y: e.clientY, left: graph.scrollLeft, top: graph.scrollTop};
      graph.classList.add('dragging');
      e.preventDefault();
    });
    window.addEventListener('mousemove', function (e) {
      if (drag) {
        graph.scrollLeft = drag.left - (e.clientX - drag.x);
        graph.scrollTop = drag.top - (e.clientY - drag.y);
      }
    });
    window.addEventListener('mouseup', function () {
      drag = null;
      graph.classList.remove('dragging');
    });
  }
});
