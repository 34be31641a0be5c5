// A Structured Streaming query's charts, from the JSON embedded in its page (the same as its API route): input vs
// processed rows per second over time, each batch's duration stacked by Spark's phases, and the state's rows and
// memory. On a live page the JSON is swapped in anew ('sparkscope:live'), and the charts take the new batches.
document.addEventListener('DOMContentLoaded', function () {
  if (typeof Chart === 'undefined' || !document.getElementById('query-data')) { return; }

  // Spark's phases in the order a trigger runs them; any other phase a Spark version reports comes after.
  var ORDER = ['latestOffset', 'getOffset', 'setOffsetRange', 'getEndOffset', 'getBatch', 'queryPlanning',
    'addBatch', 'walCommit', 'commitOffsets', 'commitBatch'];
  var COLORS = ['#8a63d2', '#b08ee8', '#c9b3f0', '#6d4fb0', '#3b9ecf', '#e0a030', '#3b6fd6', '#2e9e5b', '#7bc89a',
    '#a3d9b6', '#d64545', '#e57b7b', '#999999'];
  var charts = {};

  function data() {
    return JSON.parse(document.getElementById('query-data').textContent);
  }

  function known(v) { return v === null || v === undefined || v < 0 ? null : v; }

  // A restart leaves a gap of minutes between two runs' batches: no line is drawn across it.
  var RUN_BREAK = { borderColor: function (ctx) {
    var data = ctx.chart.data.datasets[ctx.datasetIndex].data;
    return data[ctx.p0DataIndex].run !== data[ctx.p1DataIndex].run ? 'rgba(0,0,0,0)' : undefined;
  } };

  // One colour per phase name, so a phase keeps its colour whichever others a Spark version reports.
  function colour(phase, i) {
    var k = ORDER.indexOf(phase);
    return COLORS[k >= 0 ? k : (ORDER.length + i) % (COLORS.length - 1)];
  }

  function seconds(d) {
    var t0 = d.batches.length ? d.batches[0].timestamp : 0;
    return function (b) { return Math.round((b.timestamp - t0) / 100) / 10; };
  }

  function phases(d) {
    var seen = {};
    d.batches.forEach(function (b) {
      Object.keys(b.durationParts).forEach(function (p) { if (p !== 'triggerExecution') { seen[p] = true; } });
    });
    var out = ORDER.filter(function (p) { return seen[p]; });
    Object.keys(seen).sort().forEach(function (p) { if (out.indexOf(p) < 0) { out.push(p); } });
    return out;
  }

  function rateConfig(d) {
    var x = seconds(d);
    return {
      type: 'line',
      data: {
        datasets: [
          { label: 'Input rows/s', borderColor: '#d64545', backgroundColor: '#d64545', pointRadius: 2, tension: 0,
            segment: RUN_BREAK, data: d.batches.map(function (b) { return { x: x(b), y: known(b.inputRowsPerSecond), batch: b.batchId, run: b.runId }; }) },
          { label: 'Processed rows/s', borderColor: '#3b6fd6', backgroundColor: '#3b6fd6', pointRadius: 2, tension: 0,
            segment: RUN_BREAK, data: d.batches.map(function (b) { return { x: x(b), y: known(b.processedRowsPerSecond), batch: b.batchId, run: b.runId }; }) }
        ]
      },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false, spanGaps: false,
        interaction: { mode: 'nearest', intersect: false },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'seconds since the first batch shown' } },
          y: { beginAtZero: true, title: { display: true, text: 'rows per second' } }
        },
        plugins: { tooltip: { callbacks: {
          title: function (items) { return 'batch ' + items[0].raw.batch; }
        } } }
      }
    };
  }

  function durationConfig(d) {
    var names = phases(d);
    var sets = names.map(function (p, i) {
      return { label: p, backgroundColor: colour(p, i), stack: 'phases',
        data: d.batches.map(function (b) { return b.durationParts[p] || 0; }) };
    });
    sets.push({ label: 'other', backgroundColor: COLORS[COLORS.length - 1], stack: 'phases',
      data: d.batches.map(function (b) { return b.otherMs; }) });
    var trigger = d.runs.length ? d.runs[d.runs.length - 1].triggerIntervalMs : -1;
    if (trigger > 0) {
      sets.push({ type: 'line', label: 'trigger interval', borderColor: '#222222', borderDash: [6, 4], pointRadius: 0,
        data: d.batches.map(function () { return trigger; }) });
    }
    return {
      type: 'bar',
      data: { labels: d.batches.map(function (b) { return b.batchId; }), datasets: sets },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { stacked: true, title: { display: true, text: 'batch' } },
          y: { stacked: true, beginAtZero: true, title: { display: true, text: 'ms' } }
        }
      }
    };
  }

  function stateConfig(d) {
    var x = seconds(d);
    return {
      type: 'line',
      data: {
        datasets: [
          { label: 'Rows in state', yAxisID: 'rows', borderColor: '#2e9e5b', backgroundColor: '#2e9e5b', pointRadius: 2,
            tension: 0, segment: RUN_BREAK, data: d.batches.map(function (b) { return { x: x(b), y: known(b.stateRows), batch: b.batchId, run: b.runId }; }) },
          { label: 'State memory (MiB)', yAxisID: 'memory', borderColor: '#e0a030', backgroundColor: '#e0a030',
            pointRadius: 2, tension: 0, segment: RUN_BREAK, data: d.batches.map(function (b) {
              var m = known(b.stateMemoryBytes);
              return { x: x(b), y: m === null ? null : Math.round(m / 10485.76) / 100, batch: b.batchId, run: b.runId };
            }) }
        ]
      },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        interaction: { mode: 'nearest', intersect: false },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'seconds since the first batch shown' } },
          rows: { type: 'linear', position: 'left', beginAtZero: true, title: { display: true, text: 'rows' } },
          memory: { type: 'linear', position: 'right', beginAtZero: true, grid: { drawOnChartArea: false },
            title: { display: true, text: 'MiB' } }
        },
        plugins: { tooltip: { callbacks: {
          title: function (items) { return 'batch ' + items[0].raw.batch; }
        } } }
      }
    };
  }

  function draw() {
    var d = data();
    [['rate-chart', rateConfig], ['duration-chart', durationConfig], ['state-chart', stateConfig]].forEach(function (c) {
      var canvas = document.getElementById(c[0]);
      if (!canvas) { return; }
      var config = c[1](d);
      if (charts[c[0]]) {
        charts[c[0]].data = config.data;
        charts[c[0]].update('none');
      } else {
        charts[c[0]] = new Chart(canvas, config);
      }
    });
  }

  draw();
  document.addEventListener('sparkscope:live', draw);
});
