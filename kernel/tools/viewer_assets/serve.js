// mtgk serve: draws the state the server sends (only what your seat may see) and posts
// your answers. Everything is decided by the server; this script only draws and clicks.
"use strict";
(function () {
  let G = null;            // the last state the server sent
  // the table's drawing (board.js, shared with the replay viewer)
  const { $, esc, playerName, teamOf, tooltip, battlefield, playerPanel: panel, items, zone } = mtgkBoard(() => G);
  let events = [];         // every event's text so far
  let epoch = -1;
  let busy = false;
  let stick = true;        // the events pane follows the newest event (till you scroll up)

  // the choices that are about each card (a click on the card picks its only one)
  function choicesByCard() {
    const by = {};
    const d = G.decision;
    if (!d) return by;
    for (const c of d.choices) if (c.oid) (by[c.oid] = by[c.oid] || []).push(c.i);
    return by;
  }

  // a player and its permanents (mark: see board.js)
  function playerPanel(m, seat, mark) {
    return panel(m, seat, { you: seat === G.you, mark: mark }) + battlefield(m, seat, mark);
  }

  function side(seats, m, mark) {
    const teams = G.teams && G.teams.length ? G.teams.filter((t) => t.some((s) => seats.includes(s))) : null;
    if (!teams) return seats.map((s) => '<div class="seat">' + playerPanel(m, s, mark) + "</div>").join("");
    return teams.map((t) => {
      const life = (m["p" + t[0]] || [0])[0];
      return '<div class="team"><div class="team-head">' + esc(t.map(playerName).join(" & ")) +
        '<span class="life" id="team-life-' + t[0] + '">' + life + "</span></div>" +
        t.map((s) => playerPanel(m, s, mark)).join("") + "</div>";
    }).join("");
  }

  // ------------------------------------------------------------ drawing
  function draw() {
    const m = G.state || {};
    const can = choicesByCard();
    const mark = (oid) => (can[oid] ? "can" : "");  // (a click on the card picks a choice)
    const mine = teamOf(G.you);
    const others = G.players.map((_, i) => i).filter((i) => !mine.includes(i));
    const ours = [G.you].concat(mine.filter((i) => i !== G.you));
    $("side-top").innerHTML = side(others, m, mark);
    $("side-bottom").innerHTML = side(ours, m, mark);
    zone("stack", items(m.s || []));
    zone("pending", items(m.t || []));
    zone("combat", (m.c || []).map(([a, whom, blockers]) => {
      const o = m["o" + a];
      const name = o && o.n ? o.n : "a creature";
      const bl = blockers.map((b) => (m["o" + b] && m["o" + b].n) || "a creature");
      return '<div class="item">' + esc(name) + " → " + esc(whom) + (bl.length ? " (blocked by " + esc(bl.join(", ")) + ")" : "") + "</div>";
    }).join(""));
    zone("exile", (m.x || []).map((c) => '<span class="mini"' + (c[1] ? ' title="' + esc(tooltip(c[1])) + '"' : "") + ">" + esc(c[1] || "face-down card") + "</span>").join(" "));
    const g = m.g || [0, 0, "", 0, -2];
    document.title = (G.decision ? "your move — " : "") + "mtgk — " + G.players.join(" vs ");
    $("title").textContent = G.players.join(" vs ");
    $("game-meta").textContent = g[0] ? "turn " + g[0] + ", " + playerName(g[1]) + "'s " + String(g[2]).replace(/_/g, " ") : "";
    $("result").textContent = G.result || "";
    $("undo").disabled = !G.can_undo;
    drawDecision();
    drawStops();
    $("yield").disabled = !G.decision || G.yielding;
    $("pay").setAttribute("aria-pressed", G.pay_by_hand ? "true" : "false");
    $("pay").classList.toggle("on", !!G.pay_by_hand);
    $("pay").textContent = G.pay_by_hand ? "pay by hand: on" : "pay by hand";
    $("autopay").hidden = !G.pay_by_hand;
    document.body.dataset.pool = G.pool || "";
    drawEvents();
    document.body.dataset.version = String(G.version);
    document.body.dataset.over = G.over ? "1" : "0";
    document.body.dataset.turn = String(g[0]);
    document.body.dataset.ready = "1";
  }

  function drawDecision() {
    const d = G.decision;
    $("message").textContent = G.message || "";
    $("back").hidden = !(d && d.can_back);
    if (!d) {
      $("prompt").textContent = G.over ? (G.result || "the game is over") : "waiting…";
      $("choices").innerHTML = G.over ? '<p>The log is in <code>' + esc(G.log) + "</code>: <code>mtgk view " + esc(G.log) + "</code> replays it.</p>" : "";
      return;
    }
    $("prompt").textContent = d.prompt;
    $("choices").innerHTML = d.choices.map((c) => '<button class="choice ' + esc(c.kind) + '" data-i="' + c.i + '"' +
      (c.oid ? ' data-oid="' + c.oid + '"' : "") + ">" + esc(c.label) + "</button>").join("");
  }

  function drawStops() {
    const t = $("stops");
    const key = JSON.stringify(G.stops);
    if (t.dataset.key === key) return;
    t.dataset.key = key;
    const row = (step) => "<tr><td>" + esc(step.replace(/_/g, " ")) + "</td>" + ["mine", "theirs"].map((w) =>
      '<td><input type="checkbox" data-whose="' + w + '" data-step="' + esc(step) + '"' + (G.stops[w].includes(step) ? " checked" : "") + "></td>").join("") + "</tr>";
    t.innerHTML = "<tr><th></th><th>your turn</th><th>their turns</th></tr>" + G.steps.map(row).join("");
  }

  function drawEvents() {
    const box = $("events");
    const ev = G.events;
    const fresh = G.epoch !== epoch || ev.from === 0;  // (everything again: nothing is new)
    if (fresh) { events = []; box.innerHTML = ""; epoch = G.epoch; }
    box.querySelectorAll(".line.new").forEach((e) => e.classList.remove("new"));
    const frag = document.createDocumentFragment();
    ev.lines.forEach((text, k) => {
      const n = ev.from + k;
      if (n < events.length) return;
      events.push(text);
      const div = document.createElement("div");
      div.className = fresh ? "line" : "line new";
      div.dataset.seq = String(n);
      div.innerHTML = '<span class="seq">' + n + "</span>" + esc(text.replace(/^\d+\s+/, ""));
      div.title = text;
      frag.appendChild(div);
    });
    box.appendChild(frag);
    if (stick || ev.from === 0) box.scrollTop = box.scrollHeight;
  }

  // ------------------------------------------------------------ talking to the server
  // while an answer is being carried out (the agents play on), show the events as they come
  async function follow() {
    while (busy) {
      try {
        const r = await fetch("/api/events?since=" + events.length + "&epoch=" + epoch + "&wait=2");
        const data = await r.json();
        if (!busy || data.error || data.epoch !== epoch) return;
        if (G && data.events.lines.length) { G.events = data.events; drawEvents(); }
      } catch (e) { return; }
    }
  }

  async function call(method, path, body) {
    busy = true;
    document.body.classList.add("busy");
    if (method !== "GET") { $("prompt").textContent = "the others play…"; follow(); }
    try {
      const r = await fetch(path, method === "GET" ? {} : {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(Object.assign({ since: events.length, epoch: epoch }, body || {})) });
      const data = await r.json();
      if (data.error) { $("message").textContent = data.error; return; }
      G = data;
      draw();
    } catch (e) {
      $("message").textContent = "the server does not answer: " + e;
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  }

  function pick(i) {
    if (busy || !G || !G.decision) return;
    call("POST", "/api/answer", { choice: i, version: G.version });
  }

  $("choices").addEventListener("click", (e) => {
    const b = e.target.closest("button.choice");
    if (b) pick(Number(b.dataset.i));
  });
  $("choices").addEventListener("mouseover", (e) => {
    const b = e.target.closest("button.choice");
    document.querySelectorAll(".lit-card").forEach((x) => x.classList.remove("lit-card"));
    if (b && b.dataset.oid) document.querySelectorAll('[data-oid="' + b.dataset.oid + '"]').forEach((x) => x.classList.add("lit-card"));
  });
  $("table").addEventListener("click", (e) => {
    const card = e.target.closest(".can[data-oid]");
    if (!card) return;
    const ids = choicesByCard()[card.dataset.oid] || [];
    document.querySelectorAll("button.choice.lit").forEach((x) => x.classList.remove("lit"));
    if (ids.length === 1) pick(ids[0]);
    else ids.forEach((i) => { const b = document.querySelector('button.choice[data-i="' + i + '"]'); if (b) b.classList.add("lit"); });
  });
  $("events").addEventListener("scroll", () => {
    const box = $("events");
    stick = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  });
  $("stops").addEventListener("change", () => {
    if (!G) return;
    const steps = (w) => Array.from(document.querySelectorAll('#stops input[data-whose="' + w + '"]:checked')).map((x) => x.dataset.step);
    call("POST", "/api/stops", { mine: steps("mine"), theirs: steps("theirs") });
  });
  function payByHand(on) { if (!busy && G) call("POST", "/api/pay", { by_hand: on, version: G.version }); }
  $("pay").addEventListener("click", () => { if (G) payByHand(!G.pay_by_hand); });
  $("autopay").addEventListener("click", () => payByHand(false));
  $("yield").addEventListener("click", () => { if (!busy && G) call("POST", "/api/yield", { version: G.version }); });
  $("back").addEventListener("click", () => { if (!busy && G) call("POST", "/api/back", { version: G.version }); });
  $("undo").addEventListener("click", () => { if (!busy && G) call("POST", "/api/undo", { version: G.version }); });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "u" && G && G.can_undo) $("undo").click();
    if (e.key === "m" && G && G.decision) $("pay").click();
    const n = Number(e.key);
    if (n >= 1 && n <= 9 && G && G.decision && n <= G.decision.choices.length) pick(n - 1);
  });
  call("GET", "/api/state?since=0&epoch=-1");
})();
