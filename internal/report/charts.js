// charts.js: the report's interactive plots, drawn with uPlot from the
// data gomb put in the page's JSON block (id gomb-charts). It
// computes nothing: every value and band comes from the analysis. Hover
// reads a size's values, a legend entry toggles its series (and its
// bands), dragging zooms the sizes, a double click resets, "log y"
// switches the time axis between log and linear.
(function () {
  "use strict";
  var specs = JSON.parse(document.getElementById("gomb-charts").textContent);

  function fmtSize(v) {
    if (v == null) return "-";
    var units = ["B", "KiB", "MiB", "GiB"], i = 0;
    while (v >= 1024 && i < units.length - 1 && v % 1024 === 0) { v /= 1024; i++; }
    return v + " " + units[i];
  }
  function fmtNum(v) {
    if (v == null || isNaN(v)) return "-";
    if (v >= 1000) return v.toFixed(0);
    if (v >= 100) return v.toFixed(1);
    if (v >= 1) return v.toFixed(2);
    return v.toPrecision(3);
  }
  // tick is an axis label: a number in its shortest form, "" where uPlot
  // leaves a tick unlabelled.
  function tick(v) { return v == null ? "" : String(parseFloat(v.toPrecision(4))); }
  function tickSize(v) { return v == null ? "" : fmtSize(v); }
  function fmtTime(v) {
    return v == null ? "-" : new Date(v * 1000).toISOString().replace("T", " ").slice(0, 16) + " UTC";
  }
  function rgba(hex, a) {
    var n = parseInt(hex.slice(1), 16);
    return "rgba(" + (n >> 16 & 255) + "," + (n >> 8 & 255) + "," + (n & 255) + "," + a + ")";
  }

  // band fills the area between lo and hi at the sizes where both exist.
  function band(u, xs, lo, hi, fill) {
    var pts = [];
    for (var j = 0; j < xs.length; j++) {
      if (lo[j] != null && hi[j] != null && hi[j] > 0 && lo[j] > 0) pts.push(j);
    }
    if (pts.length < 2) return;
    var ctx = u.ctx;
    ctx.fillStyle = fill;
    ctx.beginPath();
    pts.forEach(function (j, k) {
      var x = u.valToPos(xs[j], "x", true), y = u.valToPos(hi[j], "y", true);
      if (k) ctx.lineTo(x, y); else ctx.moveTo(x, y);
    });
    for (var k = pts.length - 1; k >= 0; k--) {
      var j = pts[k];
      ctx.lineTo(u.valToPos(xs[j], "x", true), u.valToPos(lo[j], "y", true));
    }
    ctx.closePath();
    ctx.fill();
  }

  function draw(spec, host, logY) {
    host.textContent = "";
    var tip = document.createElement("div");
    tip.className = "tip";
    var data = [spec.x];
    var fmtX = spec.time ? fmtTime : fmtSize;
    var series = [{ label: spec.time ? "run" : "size", value: function (u, v) { return fmtX(v); } }];
    spec.series.forEach(function (s) {
      data.push(s.y);
      series.push({ label: s.label, stroke: s.colour, width: 2, points: { show: true, size: 4 },
        value: function (u, v) { return fmtNum(v); } });
    });
    var width = Math.max(320, host.clientWidth || 640);
    var yMax = spec.ref > 0 ? spec.ref * 1.05 : null;
    var opts = {
      title: spec.title, width: width, height: 340,
      scales: {
        x: spec.time ? { time: true } : { time: false, distr: 3, log: 2 },
        y: logY ? { distr: 3, log: 10 } : { range: function (u, lo, hi) { return [spec.from0 ? 0 : lo, Math.max(hi, yMax || hi) * 1.02]; } }
      },
      axes: [
        spec.time ? { label: "run started (UTC)" } : { label: "message size", values: function (u, vals) { return vals.map(tickSize); } },
        { label: spec.ylabel, size: 60, values: function (u, vals) { return vals.map(tick); } }
      ],
      series: series,
      cursor: { drag: { x: true, y: false } },
      hooks: {
        draw: [function (u) {
          var ctx = u.ctx;
          ctx.save();
          ctx.beginPath();
          ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
          ctx.clip();
          spec.series.forEach(function (s, i) {
            if (!u.series[i + 1].show) return;
            if (s.lo && s.hi) band(u, spec.x, s.lo, s.hi, rgba(s.colour, 0.15));
            if (s.p10 && s.p90) band(u, spec.x, s.p10, s.p90, rgba(s.colour, 0.3));
          });
          // history: points beyond the band ringed red, label changes marked
          (spec.beyond || []).forEach(function (j) {
            var v = spec.series[0].y[j];
            if (v == null || !u.series[1].show) return;
            ctx.strokeStyle = "#c00";
            ctx.lineWidth = 2;
            ctx.beginPath();
            ctx.arc(u.valToPos(spec.x[j], "x", true), u.valToPos(v, "y", true), 7, 0, 2 * Math.PI);
            ctx.stroke();
          });
          (spec.marks || []).forEach(function (m) {
            var x = u.valToPos(m.x, "x", true);
            ctx.strokeStyle = "#777";
            ctx.setLineDash([3, 3]);
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.setLineDash([]);
            ctx.fillStyle = "#444";
            ctx.font = "11px sans-serif";
            ctx.fillText(m.text, x + 4, u.bbox.top + 12);
          });
          if (spec.ref > 0) {
            var y = u.valToPos(spec.ref, "y", true);
            ctx.strokeStyle = "#555";
            ctx.setLineDash([6, 4]);
            ctx.beginPath();
            ctx.moveTo(u.bbox.left, y);
            ctx.lineTo(u.bbox.left + u.bbox.width, y);
            ctx.stroke();
          }
          ctx.restore();
        }],
        setCursor: [function (u) {
          var i = u.cursor.idx;
          if (i == null || u.cursor.left < 0) { tip.style.display = "none"; return; }
          var lines = [fmtX(spec.x[i])];
          if (spec.runs && spec.runs[i]) {
            lines.push("run " + spec.runs[i].run + (spec.runs[i].note ? " (" + spec.runs[i].note + ")" : "") +
              ((spec.beyond || []).indexOf(i) >= 0 ? ": beyond the band" : ""));
          }
          spec.series.forEach(function (s, k) {
            if (!u.series[k + 1].show || s.y[i] == null) return;
            var l = s.label + ": " + fmtNum(s.y[i]) + " " + spec.unit;
            if (s.lo && s.lo[i] != null) l += " (" + spec.band + " " + fmtNum(s.lo[i]) + "-" + fmtNum(s.hi[i]) + ")";
            if (s.p10 && s.p10[i] != null) l += " (p10-p90 " + fmtNum(s.p10[i]) + "-" + fmtNum(s.p90[i]) + ")";
            lines.push(l);
          });
          tip.textContent = lines.join("\n");
          tip.style.display = "block";
          tip.style.left = (u.over.offsetLeft + u.cursor.left + 14) + "px";
          tip.style.top = (u.over.offsetTop + u.cursor.top + 14) + "px";
        }]
      }
    };
    var chart = new uPlot(opts, data, host);
    host.appendChild(tip);
    if (spec.runs) { // a point links to its run's row (a click, not the end of a drag)
      var down = null;
      chart.over.addEventListener("mousedown", function (e) { down = [e.clientX, e.clientY]; });
      chart.over.addEventListener("click", function (e) {
        var i = chart.cursor.idx;
        if (i == null || !down || Math.abs(e.clientX - down[0]) + Math.abs(e.clientY - down[1]) > 3) return;
        location.hash = "run-" + spec.runs[i].run;
      });
    }
    return chart;
  }

  // The charts, in page order (the browser tests read their scales).
  var charts = [];
  window.gombCharts = charts;
  specs.forEach(function (spec) {
    var box = document.getElementById(spec.id);
    if (!box) return;
    var host = box.querySelector(".chart");
    var logBox = box.querySelector("input.logy");
    var k = charts.length;
    if (logBox) {
      logBox.checked = spec.log_y;
      logBox.addEventListener("change", function () {
        charts[k].destroy();
        charts[k] = draw(spec, host, logBox.checked);
      });
    }
    charts.push(draw(spec, host, spec.log_y));
  });
  // Marks the page as rendered; the tests read it back from the DOM.
  document.body.setAttribute("data-rendered", charts.length + " charts");
})();
