// What-if chart: simulated wall time by executor count, the measured run, the critical path and the ideal time.
document.addEventListener('DOMContentLoaded', function () {
  var canvas = document.getElementById('whatif-chart');
  var dataEl = document.getElementById('whatif-data');
  if (!canvas || !dataEl || typeof Chart === 'undefined') { return; }
  var w = JSON.parse(dataEl.textContent);
  var curve = w.curve;
  if (!curve.length) { return; }
  var longest = Math.max(w.actualDurationMs, w.criticalPathMs, w.idealMs,
    Math.max.apply(null, curve.map(function (p) { return p.estimatedWallMs; })));
  // Minutes for long runs, seconds otherwise: the axis then reads in round numbers.
  var inMinutes = longest >= 180000;
  var unit = inMinutes ? 'min' : 's';
  var y = function (ms) { return Math.round(ms / (inMinutes ? 600 : 10)) / 100; };
  var fmt = function (ms) {
    var s = ms / 1000;
    if (s < 60) { return s.toFixed(1) + ' s'; }
    var m = Math.floor(s / 60);
    if (m < 60) { return m + ' min ' + Math.round(s % 60) + ' s'; }
    return Math.floor(m / 60) + ' h ' + (m % 60) + ' min';
  };
  var xs = curve.map(function (p) { return p.executors; });
  var minX = Math.min.apply(null, xs);
  var maxX = Math.max.apply(null, xs);
  var flat = function (ms) { return [{ x: minX, y: y(ms), ms: ms }, { x: maxX, y: y(ms), ms: ms }]; };
  var what = w.unit;
  new Chart(canvas, {
    type: 'line',
    data: {
      datasets: [
        { label: 'Simulated wall time',
          data: curve.map(function (p) { return { x: p.executors, y: y(p.estimatedWallMs), ms: p.estimatedWallMs, slots: p.slots }; }),
          borderColor: '#3b6fd6', backgroundColor: curve.map(function (p) { return p.actual ? '#d64545' : '#3b6fd6'; }),
          pointStyle: curve.map(function (p) { return p.actual ? 'rectRot' : 'circle'; }),
          pointRadius: curve.map(function (p) { return p.actual ? 8 : 4; }), pointHoverRadius: 9, tension: 0 },
        { label: 'Actual run (measured)', data: [{ x: w.actualExecutors, y: y(w.actualDurationMs), ms: w.actualDurationMs }],
          showLine: false, pointStyle: 'triangle', pointRadius: 9, borderColor: '#d64545', backgroundColor: '#d64545' },
        { label: 'Critical path', data: flat(w.criticalPathMs), borderColor: '#8a63d2', borderDash: [6, 4],
          pointRadius: 0, pointHitRadius: 4 },
        { label: 'Ideal at ' + w.actualSlots + ' slots', data: flat(w.idealMs), borderColor: '#2e9e5b',
          borderDash: [2, 3], pointRadius: 0, pointHitRadius: 4 }
      ]
    },
    options: {
      responsive: true, maintainAspectRatio: false, animation: false,
      interaction: { mode: 'nearest', intersect: true },
      scales: {
        x: { type: 'linear', title: { display: true, text: what }, ticks: { precision: 0 } },
        y: { beginAtZero: true, title: { display: true, text: 'wall time (' + unit + ')' } }
      },
      plugins: {
        tooltip: {
          callbacks: {
            title: function (items) {
              var d = items[0].raw;
              return items[0].datasetIndex === 0 ? d.x + ' ' + what + ' (' + d.slots + ' slots)' : items[0].dataset.label;
            },
            label: function (item) { return item.dataset.label + ': ' + fmt(item.raw.ms); }
          }
        }
      }
    }
  });
});
