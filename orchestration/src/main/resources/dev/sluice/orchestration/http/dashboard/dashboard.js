// The Sluice dashboard: polls the JSON API, draws the pipeline graph and charts the selected pipeline's recent
// batches with uPlot. No framework, no network beyond this service.
(function () {
  'use strict';
  const REFRESH_MS = 2000;
  const COLORS = { in: '#0f172a', written: '#15803d', superseded: '#7c3aed', unchanged: '#64748b',
    deduplicated: '#0891b2', late: '#b45309', quarantined: '#b91c1c', filtered: '#db2777', dropped: '#ea580c' };
  const SERIES = [
    { id: 'chart-duration', label: 'duration ms', color: '#2563eb', value: b => b.durationMs },
    { id: 'chart-rate', label: 'rows/s', color: '#16a34a', value: b => b.rowsPerSecond },
    { id: 'chart-lag', label: 'lag s', color: '#d97706', value: b => b.watermarkLagSeconds },
    { id: 'chart-state', label: 'state rows', color: '#9333ea', value: b => b.stateRows },
  ];
  // compact tick labels (1.2K, 93M) keep large values (a watermark years behind, say) inside the axis
  const COMPACT = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
  const state = { token: sessionStorage.getItem('sluiceToken'), selected: location.hash.slice(1) || null,
    charts: {}, ledgerKeys: '' };

  async function api(path, method) {
    const headers = {};
    if (state.token) headers.Authorization = 'Bearer ' + state.token;
    const res = await fetch(path, { method: method || 'GET', headers });
    if (res.status === 401) {
      document.getElementById('token-form').hidden = false;
      throw new Error('the API needs its token');
    }
    const body = await res.json();
    if (!res.ok) throw new Error(body.error || res.statusText);
    return body;
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function renderGraph(pipelines) {
    const graph = document.getElementById('graph');
    const focused = document.activeElement && document.activeElement.dataset.pipeline;
    graph.querySelectorAll('.node').forEach(n => n.remove());
    for (const p of pipelines) {
      const layer = graph.querySelector('.layer[data-layer="' + p.layer + '"]') || graph.querySelector('.layer');
      const b = el('button', { type: 'button', class: 'node', 'data-pipeline': p.name, 'data-state': p.state,
        'aria-pressed': String(p.name === state.selected),
        'aria-label': p.name + ', ' + p.state + (p.schedule ? ', ' + p.schedule : '') });
      b.append(el('span', { class: 'name' }, p.name), el('span', { class: 'state' },
        p.state + (p.schedule ? ' · ' + p.schedule : p.after.length ? ' · after ' + p.after.join(', ') : '')));
      b.addEventListener('click', () => select(p.name));
      b.addEventListener('keydown', e => moveFocus(e, b));
      layer.append(b);
      if (p.name === focused) b.focus();
    }
    drawEdges(pipelines);
  }

  // Arrow keys move between the graph's nodes, as in a grid; Enter or Space selects (they are buttons).
  function moveFocus(e, from) {
    const nodes = Array.from(document.querySelectorAll('.node'));
    const i = nodes.indexOf(from);
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[e.key];
    if (step && nodes.length) {
      e.preventDefault();
      nodes[(i + step + nodes.length) % nodes.length].focus();
    }
  }

  function drawEdges(pipelines) {
    const svg = document.getElementById('edges');
    const box = svg.getBoundingClientRect();
    svg.innerHTML = '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6"'
      + ' orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#475569"/></marker></defs>';
    const node = name => document.querySelector('.node[data-pipeline="' + CSS.escape(name) + '"]');
    for (const p of pipelines) {
      for (const u of p.upstream) {
        const a = node(u), b = node(p.name);
        if (!a || !b) continue;
        const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
        const line = document.createElementNS('http://www.w3.org/2000/svg', 'line');
        line.setAttribute('x1', ra.right - box.left);
        line.setAttribute('y1', ra.top + ra.height / 2 - box.top);
        line.setAttribute('x2', rb.left - box.left);
        line.setAttribute('y2', rb.top + rb.height / 2 - box.top);
        svg.append(line);
      }
    }
  }

  function fact(dl, name, value) {
    dl.append(el('dt', {}, name), el('dd', {}, value === null || value === undefined || value === '' ? '–' : String(value)));
  }

  function renderDetail(d) {
    document.getElementById('detail-title').textContent = 'Pipeline ' + d.name;
    const dl = document.getElementById('facts');
    dl.replaceChildren();
    fact(dl, 'state', d.state);
    fact(dl, 'layer · table', d.layer + ' · ' + d.table);
    fact(dl, 'schedule', d.schedule || (d.after.length ? 'after ' + d.after.join(', ') : d.trigger));
    fact(dl, 'next fire', d.nextFire);
    fact(dl, 'last run', d.lastRun ? d.lastRun.outcome + ' at ' + d.lastRun.end + ' (' + d.lastRun.rows + ' rows)' : null);
    fact(dl, 'watermark', d.watermark);
    const b = d.backlog;
    fact(dl, 'backlog', [b.files !== null ? b.files + ' files' : null, b.bytes !== null ? b.bytes + ' bytes' : null,
      b.commits !== null ? b.commits + ' commits' : null, b.offsets !== null ? b.offsets + ' offsets behind latest' : null,
      b.problem ? 'unknown: ' + b.problem : null].filter(Boolean).join(', '));
    fact(dl, 'ledger (last batch)', d.ledger ? Object.entries(d.ledger).map(([k, v]) => k + ' ' + v).join(', ') : null);
    fact(dl, 'state operators', d.stateOperators.map(o => o.operatorName + ': ' + o.numRowsTotal + ' rows').join(', '));
    document.getElementById('pause').disabled = d.paused;
    document.getElementById('resume').disabled = !d.paused;
  }

  function chart(id, series, data) {
    const host = document.getElementById(id);
    const key = series.map(s => s.label).join('|');
    let c = state.charts[id];
    if (!c || c.key !== key) {
      if (c) c.plot.destroy();
      const opts = { width: Math.max(240, host.clientWidth || 380), height: 150, legend: { show: series.length > 1 },
        scales: { x: { time: true } }, cursor: { show: true },
        axes: [{}, { size: 56, values: (u, ticks) => ticks.map(v => COMPACT.format(v)) }],
        series: [{}].concat(series.map(s => ({ label: s.label, stroke: s.color, width: 2, spanGaps: true,
          points: { show: true, size: 5, fill: s.color } }))) };
      c = state.charts[id] = { key, plot: new uPlot(opts, data, host) };
    } else {
      c.plot.setData(data);
    }
    host.dataset.points = String(data[0].length);
  }

  function renderCharts(batches) {
    const x = batches.map(b => Date.parse(b.timestamp) / 1000);
    for (const s of SERIES) {
      chart(s.id, [s], [x, batches.map(b => { const v = s.value(b); return v === null ? null : v; })]);
    }
    const keys = [];
    batches.forEach(b => Object.keys(b.ledger).forEach(k => { if (!keys.includes(k)) keys.push(k); }));
    const ledger = keys.map(k => ({ label: k, color: COLORS[k] || '#334155' }));
    chart('chart-ledger', ledger.length ? ledger : [{ label: 'in', color: COLORS.in }],
      [x].concat((ledger.length ? keys : ['in']).map(k => batches.map(b => b.ledger[k] === undefined ? null : b.ledger[k]))));
  }

  function renderRuns(runs) {
    const body = document.querySelector('#runs tbody');
    body.replaceChildren();
    for (const r of runs) {
      const tr = el('tr');
      [r.start, r.cause, r.outcome, r.batches, r.rows, r.durationMs + ' ms', r.error || ''].forEach(v => tr.append(el('td', {}, String(v))));
      body.append(tr);
    }
  }

  function select(name) {
    state.selected = name;
    history.replaceState(null, '', '#' + encodeURIComponent(name));
    refresh();
  }

  async function act(action) {
    const out = document.getElementById('action-result');
    try {
      await api('/api/pipelines/' + encodeURIComponent(state.selected) + '/' + action, 'POST');
      out.textContent = action + ': done';
    } catch (e) {
      out.textContent = action + ': ' + e.message;
    }
    refresh();
  }

  let busy = false;
  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      const pipelines = await api('/api/pipelines');
      if (!pipelines.some(p => p.name === state.selected)) state.selected = pipelines.length ? pipelines[0].name : null;
      renderGraph(pipelines);
      if (state.selected) {
        const name = encodeURIComponent(state.selected);
        const [detail, runs] = await Promise.all([api('/api/pipelines/' + name), api('/api/pipelines/' + name + '/runs?limit=10')]);
        renderDetail(detail);
        renderCharts(detail.recentBatches);
        renderRuns(runs);
      }
      document.getElementById('status').textContent = 'Updated ' + new Date().toLocaleTimeString();
    } catch (e) {
      document.getElementById('status').textContent = 'Could not update: ' + e.message;
    } finally {
      busy = false;
    }
  }

  document.getElementById('token-form').addEventListener('submit', e => {
    e.preventDefault();
    state.token = document.getElementById('token').value;
    sessionStorage.setItem('sluiceToken', state.token);
    document.getElementById('token-form').hidden = true;
    refresh();
  });
  document.getElementById('run').addEventListener('click', () => act('run'));
  document.getElementById('pause').addEventListener('click', () => act('pause'));
  document.getElementById('resume').addEventListener('click', () => act('resume'));
  window.addEventListener('resize', () => { Object.values(state.charts).forEach(c => c.plot.destroy()); state.charts = {}; refresh(); });
  refresh();
  setInterval(refresh, REFRESH_MS);
})();
