// History chart: duration, total task time and spill per run; hover shows the run, click opens it.
document.addEventListener('DOMContentLoaded', function () {
  var canvas = document.getElementById('history-chart');
  var dataEl = document.getElementById('history-data');
  if (!canvas || !dataEl || typeof Chart === 'undefined') { return; }
  var hist = JSON.parse(dataEl.textContent);
  var runs = hist.runs;
  var minutes = function (ms) { return Math.round(ms / 600) / 100; };
  var fmtDate = function (t) { return new Date(t).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'); };
  var fmtDur = function (ms) {
    var s = Math.round(ms / 1000);
    if (s < 60) { return s + ' s'; }
    var m = Math.floor(s / 60);
    if (m < 60) { return m + ' min ' + (s % 60) + ' s'; }
    return Math.floor(m / 60) + ' h ' + (m % 60) + ' min';
  };
  var colour = function (sev) { return sev === 'HIGH' ? '#d64545' : sev === 'LOW' ? '#e0a800' : '#2e9e5b'; };
  var labels = runs.map(function (r) { return fmtDate(r.startTime).slice(0, 16); });
  new Chart(canvas, {
    type: 'line',
    data: {
      labels: labels,
      datasets: [
        { label: 'Duration (min)', data: runs.map(function (r) { return minutes(r.durationMs); }),
          borderColor: '#3b6fd6', backgroundColor: runs.map(function (r) { return colour(r.worstSeverity); }),
          pointStyle: runs.map(function (r) { return r.slow ? 'triangle' : 'circle'; }),
          pointRadius: runs.map(function (r) { return r.slow ? 9 : 5; }), pointHoverRadius: 10, yAxisID: 'y' },
        { label: 'Total task time (min)', data: runs.map(function (r) { return minutes(r.totalTaskTimeMs); }),
          borderColor: '#8a63d2', borderDash: [6, 4], pointRadius: 3, yAxisID: 'y2' },
        { label: 'Spill (MiB)', data: runs.map(function (r) { return Math.round(r.spillBytes / 1048576); }),
          borderColor: '#c7792b', borderDash: [2, 3], pointRadius: 3, yAxisID: 'y3' }
      ]
    },
    options: {
      responsive: true, maintainAspectRatio: false, animation: false,
      interaction: { mode: 'nearest', intersect: true },
      scales: {
        y: { position: 'left', title: { display: true, text: 'duration (min)' }, beginAtZero: true },
        y2: { position: 'right', title: { display: true, text: 'task time (min)' }, beginAtZero: true,
              grid: { drawOnChartArea: false } },
        y3: { display: false, beginAtZero: true }
      },
      plugins: {
        tooltip: {
          callbacks: {
            title: function (items) { var r = runs[items[0].dataIndex]; return r.appId + (r.attemptId ? '/' + r.attemptId : ''); },
            label: function (item) {
              var r = runs[item.dataIndex];
              if (item.datasetIndex === 0) {
                return [fmtDate(r.startTime), 'duration ' + fmtDur(r.durationMs),
                        'worst severity ' + (r.worstSeverity || 'none') + (r.slow ? ' · much slower than usual' : '')];
              }
              return item.dataset.label + ': ' + item.formattedValue;
            }
          }
        }
      },
      onClick: function (evt, elements) {
        if (elements.length > 0) { window.location.href = runs[elements[0].index].url; }
      }
    }
  });
});
