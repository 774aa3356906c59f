// mtgk serve: draws the state the server sends (only what your seat may see) and posts
// your answers. Everything is decided by the server; this script only draws and clicks.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let G = null;            // the last state the server sent
  let events = [];         // every event's text so far
  let epoch = -1;
  let busy = false;
  let stick = true;        // the events pane follows the newest event (till you scroll up)

  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }
  function playerName(i) { return G.players[i] !== undefined ? G.players[i] : "player " + i; }
  function teamOf(i) { return (G.teams || []).find((t) => t.includes(i)) || [i]; }
  function mana(s) { return s ? s.split("").map((c) => "{" + c + "}").join("") : "empty"; }

  function tooltip(name) {
    const c = G.cards[name];
    if (!c) return name || "";
    const [cost, type, text, pt, loy] = c;
    return [name + (cost ? "  " + cost : ""), type, text, pt, loy ? "Loyalty " + loy : ""].filter(Boolean).join("\n");
  }

  // the choices that are about each card (a click on the card picks its only one)
  function choicesByCard() {
    const by = {};
    const d = G.decision;
    if (!d) return by;
    for (const c of d.choices) if (c.oid) (by[c.oid] = by[c.oid] || []).push(c.i);
    return by;
  }

  function mini(card, can) {
    if (!card) return '<span class="mini hidden" title="a card you cannot see">hidden card</span>';
    const c = can[card[0]] ? " can" : "";
    return '<span class="mini' + c + '" data-oid="' + card[0] + '" title="' + esc(tooltip(card[1])) + '">' + esc(card[1]) + "</span>";
  }

  function permanent(oid, o, can) {
    const land = o.ty && /\bLand\b/.test(o.ty) && !o.pt;
    const cls = ["perm"];
    if (land) cls.push("land");
    if (o.tp) cls.push("tapped");
    if (o.n === null) cls.push("hidden-card");
    if (can[oid]) cls.push("can");
    const name = o.n === null ? (o.fd ? "face-down card" : "hidden card") : o.n + (o.fd ? " (face down)" : "");
    const badges = [];
    if (o.tp) badges.push('<span class="b tapped-b">tapped</span>');
    if (o.sk) badges.push('<span class="b sick" title="summoning sick">sick</span>');
    if (o.tk) badges.push('<span class="b">token</span>');
    if (o.dm) badges.push('<span class="b dmg">' + o.dm + " dmg</span>");
    if (o.k) for (const [kind, n] of Object.entries(o.k)) badges.push('<span class="b ctr">' + n + " " + esc(kind) + "</span>");
    if (o.w !== undefined) badges.push('<span class="b">owner ' + esc(playerName(o.w)) + "</span>");
    if (o.kw) badges.push('<span class="b">' + esc(o.kw.join(", ")) + "</span>");
    let corner = "";
    if (o.pt) corner = '<span class="pt">' + o.pt[0] + "/" + o.pt[1] + "</span>";
    else if (o.l !== undefined) corner = '<span class="loy" title="loyalty">' + o.l + "</span>";
    const tip = o.n === null ? "" : tooltip(o.n);
    return '<div class="' + cls.join(" ") + '" data-oid="' + oid + '" title="' + esc(tip) + '">' +
      '<div class="name">' + esc(name) + "</div>" +
      (o.ty ? '<div class="type">' + esc(o.ty) + "</div>" : "") +
      '<div class="badges">' + badges.join("") + "</div>" + corner + "</div>";
  }

  function battlefield(m, seat, can) {
    const ids = m.bf || [];
    const attached = {};
    for (const id of ids) {
      const o = m["o" + id];
      if (o && o.a && m["o" + o.a]) (attached[o.a] = attached[o.a] || []).push(id);
    }
    const rows = { other: [], land: [] };
    for (const id of ids) {
      const o = m["o" + id];
      if (!o || o.c !== seat) continue;
      if (o.a && m["o" + o.a]) continue; // drawn under its host
      let html = '<div class="holder">' + permanent(id, o, can);
      for (const a of attached[id] || []) {
        const ao = m["o" + a];
        html += '<span class="attach" data-oid="' + a + '" title="' + esc(ao.n ? tooltip(ao.n) : "") + '">⤷ ' + esc(ao.n || "hidden card") + "</span>";
      }
      html += "</div>";
      const land = o.ty && /\bLand\b/.test(o.ty) && !o.pt;
      rows[land ? "land" : "other"].push(html);
    }
    return '<div class="battlefield" id="bf-' + seat + '">' +
      '<div class="row creatures">' + rows.other.join("") + "</div>" +
      '<div class="row lands">' + rows.land.join("") + "</div></div>";
  }

  function playerPanel(m, seat, can) {
    const p = m["p" + seat] || [0, 0, 0, "", 0, 0];
    const g = m.g || [0, 0, "", 0, -2];
    const hand = m["h" + seat] || [];
    const grave = m["y" + seat] || [];
    let badge = "";
    if (g[3] && g[4] !== null && g[4] >= 0 && teamOf(g[4]).includes(seat)) badge = '<span class="badge won">won</span>';
    else if (p[4]) badge = '<span class="badge lost">lost</span>';
    const you = seat === G.you;
    return '<div class="player' + (g[1] === seat && g[0] ? " active" : "") + (you ? " you" : "") + '" id="player-' + seat + '">' +
      '<span class="pname" id="name-' + seat + '">' + esc(playerName(seat)) + (you ? " (you)" : "") + "</span>" + badge +
      '<span><span class="life-label">life </span><span class="life" id="life-' + seat + '">' + p[0] + "</span></span>" +
      '<span class="stat">library <b id="library-' + seat + '">' + p[1] + "</b></span>" +
      '<span class="stat">mana <b id="mana-' + seat + '">' + esc(mana(p[3])) + "</b></span>" +
      '<div class="hand" id="hand-' + seat + '"><span class="zone-label">hand (' + p[2] + ")</span>" +
      hand.map((c) => mini(c, can)).join("") + "</div>" +
      '<details class="grave" id="graveyard-' + seat + '"><summary>graveyard (' + grave.length + ")</summary>" +
      '<div class="graveyard">' + grave.map((c) => mini(c, can)).join("") + "</div></details></div>" +
      battlefield(m, seat, can);
  }

  function items(list) {
    return list.map((it) => {
      const [id, text, kind, ctrl, targets] = it;
      return '<div class="item" data-oid="' + id + '">' + esc(text) + ' <span class="who">(' + esc(kind) + ", " + esc(playerName(ctrl)) + ")</span>" +
        (targets.length ? " → " + esc(targets.join(", ")) : "") + "</div>";
    }).join("");
  }

  function zone(id, html) {
    $(id).innerHTML = html;
    $(id).parentElement.classList.toggle("empty", !html);
  }

  function side(seats, m, can) {
    const teams = G.teams && G.teams.length ? G.teams.filter((t) => t.some((s) => seats.includes(s))) : null;
    if (!teams) return seats.map((s) => '<div class="seat">' + playerPanel(m, s, can) + "</div>").join("");
    return teams.map((t) => {
      const life = (m["p" + t[0]] || [0])[0];
      return '<div class="team"><div class="team-head">' + esc(t.map(playerName).join(" & ")) +
        '<span class="life" id="team-life-' + t[0] + '">' + life + "</span></div>" +
        t.map((s) => playerPanel(m, s, can)).join("") + "</div>";
    }).join("");
  }

  // ------------------------------------------------------------ drawing
  function draw() {
    const m = G.state || {};
    const can = choicesByCard();
    const mine = teamOf(G.you);
    const others = G.players.map((_, i) => i).filter((i) => !mine.includes(i));
    const ours = [G.you].concat(mine.filter((i) => i !== G.you));
    $("side-top").innerHTML = side(others, m, can);
    $("side-bottom").innerHTML = side(ours, m, can);
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
