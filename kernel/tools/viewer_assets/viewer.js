// mtgk replay viewer: steps through the states embedded in #game-data.
// Everything is computed by the kernel when the page is written; this script
// only rebuilds a state from its keyframe and diffs and draws it.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("game-data").textContent);
  const N = D.tag.length;
  // the table's drawing (board.js, shared with the play page of mtgk serve)
  const { $, esc, playerName, teamOf, mana, battlefield, playerPanel: panel, items, zone } = mtgkBoard(() => D);
  const ui = { p: 0, n: 0 };
  // the data as the kernel wrote it (format 3): the event texts are numbers in
  // D.strings, a cause is stored as how far back it is
  D.cause = D.cause.map((d, i) => i - d);
  for (const P of D.perspectives) P.text = P.text.map((k) => D.strings[k]);

  // children[n]: the events caused by event n
  const children = Array.from({ length: N }, () => []);
  D.cause.forEach((c, i) => { if (c >= 0 && c < N) children[c].push(i); });

  // ------------------------------------------------------------ states
  // the last keyframe at or before event n (P.keyAt: the events of the keyframes)
  function keyframeBefore(P, n) {
    let lo = 0, hi = P.keyAt.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (P.keyAt[mid] <= n) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  // the map perspective p stores for event n (its own parts: for a perspective with a
  // base, the parts that differ from the base's), rebuilt from the keyframe before n or,
  // stepping forward, from the last one rebuilt; the map is changed by the next call
  const own = D.perspectives.map(() => ({ n: -1, m: null }));
  function stored(p, n) {
    const P = D.perspectives[p], c = own[p];
    if (c.n === n) return c.m;
    let m, i;
    const k = keyframeBefore(P, n);
    if (c.n < n && c.n >= P.keyAt[k]) {
      m = c.m; i = c.n + 1;
    } else {
      m = Object.assign({}, P.keyframes[k]); i = P.keyAt[k] + 1;
    }
    for (; i <= n; i++) {
      const d = P.diffs[i];
      Object.assign(m, d[0]);
      if (d.length > 1) for (const key of d[1]) delete m[key];
      if (d.length > 2) {
        for (const key in d[2]) {  // [keep, keep_end, middle]: a long list changed
          const [keep, end, mid] = d[2][key], old = m[key];
          m[key] = old.slice(0, keep).concat(mid, old.slice(old.length - end));
        }
      }
    }
    c.n = n; c.m = m;
    return m;
  }

  // a list of cards with their names ([id, name number] -> [id, name]; null: hidden),
  // made once per list
  const named = new WeakMap();
  function cardList(list) {
    let out = named.get(list);
    if (!out) {
      out = list.map((c) => (c === null ? null : [c[0], D.names[c[1]]]));
      named.set(list, out);
    }
    return out;
  }

  // the state map of perspective p at event n, as board.js draws it (a new object)
  let cache = { p: -1, n: -1, m: null };
  function frame(p, n) {
    if (cache.p === p && cache.n === n) return cache.m;
    const P = D.perspectives[p];
    const m = P.base === null || P.base === undefined ? stored(p, n)
      : Object.assign({}, stored(P.base, n), stored(p, n));
    const out = {};
    for (const key in m) {
      const c = key.charCodeAt(0);  // h<seat>, y<seat>: a hand, a graveyard
      out[key] = (c === 104 || c === 121) && key.length > 1 && key.charCodeAt(1) < 58 ? cardList(m[key]) : m[key];
    }
    out.g = out.g.slice();
    out.g[2] = D.steps[out.g[2]];
    cache = { p: p, n: n, m: out };
    return out;
  }

  // ------------------------------------------------------------ drawing helpers
  function playerPanel(m, seat) {
    return panel(m, seat, { deck: D.decks[seat], landsPlayed: true, graveOpen: !!(ui.openGrave && ui.openGrave[seat]) });
  }

  // ------------------------------------------------------------ what an event changed
  const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);
  const cardNames = (list) => (list || []).map((c) => (c ? c[1] : "a hidden card"));

  // the differences between the state maps before (a) and after (b) an event, in words
  function diffLines(a, b) {
    const out = [];
    const ga = a.g || [], gb = b.g || [];
    if (ga[0] !== gb[0]) out.push("turn " + (ga[0] || "—") + " → " + gb[0]);
    if (ga[2] !== gb[2]) out.push("step " + String(ga[2] || "—").replace(/_/g, " ") + " → " + String(gb[2] || "—").replace(/_/g, " "));
    if (!ga[3] && gb[3]) out.push("the game is over");
    D.players.forEach((_, i) => {
      const pa = a["p" + i] || [], pb = b["p" + i] || [], who = playerName(i);
      const parts = [["life", 0], ["library", 1], ["hand", 2], ["mana pool", 3], ["lands played", 5]];
      for (const [what, j] of parts) {
        if (pa[j] !== pb[j]) out.push(who + ": " + what + " " + (j === 3 ? mana(pa[j]) : pa[j]) + " → " + (j === 3 ? mana(pb[j]) : pb[j]));
      }
      if (!pa[4] && pb[4]) out.push(who + " lost");
      const ya = cardNames(a["y" + i]), yb = cardNames(b["y" + i]);
      if (yb.length > ya.length && same(yb.slice(yb.length - ya.length), ya)) {
        out.push("+ " + yb.slice(0, yb.length - ya.length).join(", ") + " into " + who + "'s graveyard");
      } else if (!same(ya, yb)) out.push(who + "'s graveyard: " + ya.length + " → " + yb.length + " cards");
    });
    const name = (o) => (o.n === null ? "a hidden card" : o.n);
    const ids = new Set([...(a.bf || []), ...(b.bf || [])]);
    for (const id of ids) {
      const oa = a["o" + id], ob = b["o" + id];
      if (!oa && ob) { out.push("+ " + name(ob) + " enters the battlefield (" + playerName(ob.c) + ")"); continue; }
      if (oa && !ob) { out.push("− " + name(oa) + " leaves the battlefield"); continue; }
      if (!oa || !ob || same(oa, ob)) continue;
      const ch = [];
      if (!!oa.tp !== !!ob.tp) ch.push(ob.tp ? "tapped" : "untapped");
      if ((oa.dm || 0) !== (ob.dm || 0)) ch.push("damage " + (oa.dm || 0) + " → " + (ob.dm || 0));
      if (!same(oa.pt, ob.pt) && ob.pt) ch.push((oa.pt ? oa.pt.join("/") : "—") + " → " + ob.pt.join("/"));
      if (oa.l !== ob.l) ch.push("loyalty " + oa.l + " → " + ob.l);
      if (!same(oa.k || {}, ob.k || {})) ch.push("counters " + JSON.stringify(ob.k || {}).replace(/[{}"]/g, "").replace(/,/g, ", ") );
      if (oa.c !== ob.c) ch.push("controller " + playerName(oa.c) + " → " + playerName(ob.c));
      if (!same(oa.kw, ob.kw)) ch.push("abilities: " + (ob.kw || []).join(", "));
      if (!!oa.sk !== !!ob.sk) ch.push(ob.sk ? "summoning sick" : "no longer summoning sick");
      if (oa.a !== ob.a) ch.push(ob.a ? "attached" : "unattached");
      out.push(name(ob) + ": " + (ch.length ? ch.join("; ") : "changed"));
    }
    const sa = (a.s || []).length, sb = (b.s || []).length;
    if (sa !== sb || !same(a.s, b.s)) out.push("stack: " + sa + " → " + sb + " objects");
    if (!same(a.t, b.t)) out.push("triggers waiting: " + (a.t || []).length + " → " + (b.t || []).length);
    if (!same(a.c, b.c)) out.push(b.c ? "combat: " + b.c.length + " attacking" : "combat ends");
    if (!same(a.x, b.x)) out.push("exile: " + (a.x || []).length + " → " + (b.x || []).length + " cards");
    if (!same(a.fx, b.fx)) out.push("continuous effects: " + (a.fx || []).length + " → " + (b.fx || []).length);
    return out;
  }

  // ------------------------------------------------------------ the event filter
  // words (each must be in the event's text), card:NAME / player:NAME (the same, by name;
  // quote a name with spaces: card:"Grizzly Bears"), type:EVENT (the event's type)
  function filterTerms(q) {
    return (q.match(/(\w+:)?"[^"]*"|\S+/g) || []).map((t) => t.replace(/"/g, "").toLowerCase());
  }

  function termMatch(t, i, P) {
    if (t.startsWith("type:")) return D.tags[D.tag[i]].toLowerCase().startsWith(t.slice(5));
    const word = /^(card|player):/.test(t) ? t.slice(t.indexOf(":") + 1) : t;
    return P.text[i].toLowerCase().includes(word);
  }

  function applyFilter() {
    const terms = filterTerms($("filter").value.trim());
    const P = D.perspectives[ui.p];
    ui.rows = null;
    if (terms.length) {
      ui.rows = [];
      for (let i = 0; i < N; i++) if (terms.every((t) => termMatch(t, i, P))) ui.rows.push(i);
    }
    $("filter-count").textContent = ui.rows ? ui.rows.length + " of " + N + " events" : "";
    buildEventList();
    draw();
  }

  const rowCount = () => (ui.rows ? ui.rows.length : N);
  const rowAt = (k) => (ui.rows ? ui.rows[k] : k);
  // the row of the first listed event at or after n
  function rowOf(n) {
    if (!ui.rows) return n;
    let lo = 0, hi = ui.rows.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (ui.rows[mid] < n) lo = mid + 1; else hi = mid; }
    return lo;
  }

  // ------------------------------------------------------------ the whole page
  function bottomSeat() {
    const v = D.perspectives[ui.p].viewer;
    return v === null || v === undefined ? 0 : v;
  }

  // a Two-Headed Giant team: one heading with the team's (shared) life, then its players
  function teamBlock(m, team, involved) {
    const p = m["p" + team[0]] || [0];
    const head = '<div class="team-head" id="team-' + team[0] + '">' + esc(team.map(playerName).join(" & ")) +
      '<span class="life-label"> life </span><span class="life team-life">' + p[0] + "</span></div>";
    return '<div class="team">' + head + team.map((s) => battlefield(m, s, involved) + playerPanel(m, s)).join("") + "</div>";
  }

  function draw() {
    const n = ui.n, P = D.perspectives[ui.p];
    const before = n > 0 ? frame(ui.p, n - 1) : {};
    const m = frame(ui.p, n);
    const refs = new Set(D.refs[n] || []);
    const involved = (oid) => (refs.has(oid) ? "involved" : "");  // (the cards of this event)
    // remember which graveyards are open
    ui.openGrave = D.players.map((_, i) => { const e = $("graveyard-" + i); return e ? e.open : false; });
    const bottom = bottomSeat();
    const seats = D.players.map((_, i) => i);
    if (D.teams && D.teams.length) {  // Two-Headed Giant: the viewer's team at the bottom
      const mine = teamOf(bottom);
      $("side-bottom").innerHTML = teamBlock(m, mine, involved);
      $("side-top").innerHTML = D.teams.filter((t) => t !== mine && !t.includes(bottom)).map((t) => teamBlock(m, t, involved)).join("");
    } else {
      const others = seats.filter((i) => i !== bottom);
      $("side-bottom").innerHTML = battlefield(m, bottom, involved) + playerPanel(m, bottom);
      $("side-top").innerHTML = others.map((s) => battlefield(m, s, involved) + playerPanel(m, s)).join("");
    }
    if (ui.card !== undefined) document.querySelectorAll('#table [data-oid="' + ui.card + '"]').forEach((e) => e.classList.add("selected"));
    $("diff-seq").textContent = n;
    const changes = n > 0 ? diffLines(before, m) : [];
    $("state-diff").innerHTML = changes.length ? changes.map((t) => "<li>" + esc(t) + "</li>").join("") : '<li class="none">(nothing on the board)</li>';
    zone("stack", m.s ? items(m.s) : "");
    zone("pending", m.t ? items(m.t) : "");
    zone("combat", m.c ? m.c.map(([a, target, blockers, wasBlocked]) => {
      const ao = m["o" + a];
      const nm = (x) => { const o = m["o" + x]; return o ? (o.n || "hidden card") : "#" + x; };
      const how = blockers.length ? ", blocked by " + blockers.map(nm).join(", ") : (wasBlocked ? ", blocked" : "");
      return '<div class="item">' + esc((ao ? ao.n || "hidden card" : "#" + a) + " attacks " + target + how) + "</div>";
    }).join("") : "");
    zone("effects", m.fx ? m.fx.map((t) => '<div class="item">' + esc(t) + "</div>").join("") : "");
    zone("exile", (m.x || []).map((x) => {
      const label = x[1] === null ? (x[3] ? "a face-down card" : "hidden card") : x[1] + (x[3] ? " (face down)" : "");
      return '<div class="item">' + esc(label) + ' <span class="who">(' + esc(playerName(x[2])) + ")" + (x[4] ? " exiled with " + esc(x[4]) : "") + "</span></div>";
    }).join(""));
    const g = m.g;
    let info = g[0] ? "Turn " + g[0] + " · " + playerName(g[1]) + (g[2] ? " · " + g[2].replace(/_/g, " ") : "") : "Before the first turn";
    if (g[3]) info += " · game over: " + (g[4] >= 0 ? playerName(g[4]) + " wins" : "a draw");
    $("turn-info").textContent = info;
    $("cur-seq").textContent = n;
    $("jump-event").value = n;
    // the cause chain and the events this one caused
    // back to the decision that started it, or the step (or turn) whose rules did, as
    // `mtgk explain` does
    const chain = [];
    for (let i = n; i >= 0 && chain.length < 1000; i = D.cause[i]) {
      chain.push(i);
      const t = D.tags[D.tag[i]];
      if (i !== n && (t === "DecisionMade" || t === "StepBegan" || t === "TurnBegan")) break;
    }
    ui.chain = new Set(chain.slice(1));
    $("chain-seq").textContent = n;
    $("causes").innerHTML = chain.map((i, k) => '<li data-seq="' + i + '">' + (k ? "← " : "") + '<span class="seq">' + i + "</span> " + esc(P.text[i]) + "</li>").join("");
    $("effects-of").innerHTML = children[n].length
      ? children[n].map((i) => '<li data-seq="' + i + '"><span class="seq">' + i + "</span> " + esc(P.text[i]) + "</li>").join("")
      : "<li class=\"none\">(none)</li>";
    // the event list: keep the current event in the middle (without scrolling the page)
    const list = $("events");
    const top = rowOf(n) * ROW;
    if (top < list.scrollTop || top + ROW > list.scrollTop + list.clientHeight) list.scrollTop = Math.max(0, top - list.clientHeight / 2 + ROW / 2);
    drawRows();
    // turn select
    let ti = -1;
    D.turnStarts.forEach((t, i) => { if (t[1] <= n) ti = i; });
    $("jump-turn").value = ti >= 0 ? String(D.turnStarts[ti][1]) : "";
    if (!$("branch-box").hidden) showBranch();
    $("next-of-card").disabled = ui.card === undefined;
    try { history.replaceState(null, "", "#e=" + n + "&p=" + P.key); } catch (e) { /* file: URLs may refuse */ }
  }

  function showBranch() {
    const src = D.source || "GAME.mtgk";
    const q = /^[\w.\/:@+-]+$/.test(src) ? src : "'" + src.replace(/'/g, "'\\''") + "'";
    $("branch-cmd").textContent = "mtgk branch " + q + " --at " + ui.n + " --agent heuristic --out whatif.mtgk";
    $("branch-box").hidden = false;
  }

  // the next event after the current one that satisfies ok(i)
  function nextWhere(ok) {
    for (let i = ui.n + 1; i < N; i++) if (ok(i)) return go(i);
  }
  const nextDecision = () => nextWhere((i) => D.tags[D.tag[i]] === "DecisionMade");
  const nextOfCard = () => { if (ui.card !== undefined) nextWhere((i) => (D.refs[i] || []).includes(ui.card)); };

  // one step: to the next (previous) event, or listed event while the list is filtered
  function step(dir) {
    if (!ui.rows) return go(ui.n + dir);
    const k = rowOf(ui.n);
    const to = dir > 0 ? (ui.rows[k] === ui.n ? k + 1 : k) : k - 1;
    if (to >= 0 && to < ui.rows.length) go(ui.rows[to]);
  }

  // The event list holds a row per event, ROW pixels high, but only the rows in view
  // (and some around them) are in the page: a long game's list costs no more than a
  // short one's.
  const ROW = 18;

  function buildEventList() {
    $("events").innerHTML = '<div id="events-rows" style="position: relative; height: ' + rowCount() * ROW + 'px"></div>';
  }

  function drawRows() {
    const P = D.perspectives[ui.p];
    const list = $("events");
    const first = Math.max(0, Math.floor(list.scrollTop / ROW) - 60);
    const last = Math.min(rowCount() - 1, first + Math.ceil(list.clientHeight / ROW) + 120);
    const parts = [];
    for (let k = first; k <= last; k++) {
      const i = rowAt(k);
      const tag = D.tags[D.tag[i]];
      const cls = "event" + (tag === "TurnBegan" ? " turn" : "") + (tag === "DecisionMade" ? " decision" : "") +
        (i > ui.n ? " future" : "") + (i === ui.n ? " current" : "") + (ui.chain && ui.chain.has(i) ? " in-chain" : "");
      parts.push('<div class="' + cls + '" style="top: ' + k * ROW + 'px" data-seq="' + i + '" data-type="' + esc(tag) + '" title="' + esc(P.text[i]) + '"><span class="seq">' + i + '</span><span class="text">' + esc(P.text[i]) + "</span></div>");
    }
    $("events-rows").innerHTML = parts.join("");
  }

  function go(n) {
    if (!N) return;
    ui.n = Math.max(0, Math.min(N - 1, n | 0));
    draw();
  }

  function turnStep(dir) {
    const starts = D.turnStarts.map((t) => t[1]);
    if (dir > 0) {
      const next = starts.find((s) => s > ui.n);
      go(next === undefined ? N - 1 : next);
    } else {
      const prev = starts.filter((s) => s < ui.n);
      go(prev.length ? prev[prev.length - 1] : 0);
    }
  }

  function setPerspective(p) {
    ui.p = p;
    applyFilter();  // (the texts differ between perspectives)
  }

  // ------------------------------------------------------------ setup
  function init() {
    const res = D.over ? (D.winner >= 0 ? teamOf(D.winner).map(playerName).join(" & ") + " won" : "a draw") : "no result";
    const meta = [N + " events", D.turnStarts.length + " turns", res, "rules " + D.profile];
    if (D.seed !== null) meta.push("seed " + D.seed);
    $("game-meta").textContent = meta.join(" · ");
    $("max-seq").textContent = Math.max(0, N - 1);
    $("jump-event").max = Math.max(0, N - 1);
    const sel = $("perspective");
    sel.innerHTML = D.perspectives.map((P, i) => '<option value="' + i + '">' + esc(P.label) + "</option>").join("");
    if (D.perspectives.length === 1) {
      $("perspective-box").classList.add("single");
      const only = document.createElement("span");
      only.className = "only";
      only.id = "perspective-only";
      only.textContent = " " + D.perspectives[0].label;
      $("perspective-box").appendChild(only);
    }
    $("jump-turn").innerHTML = '<option value="">—</option>' + D.turnStarts.map((t) => '<option value="' + t[1] + '">Turn ' + t[0] + " (" + esc(playerName(t[2])) + ")</option>").join("");
    $("notes").textContent = D.notes.join("; ");
    // from the URL: #e=123&p=all
    const h = new URLSearchParams(location.hash.slice(1));
    const pk = h.get("p");
    const pi = D.perspectives.findIndex((P) => P.key === pk);
    ui.p = pi >= 0 ? pi : 0;
    sel.value = String(ui.p);
    // from the URL's #e=N, else where the page was made to open (the first decision, --at)
    ui.n = Math.max(0, Math.min(N - 1, h.has("e") ? parseInt(h.get("e"), 10) || 0 : D.start || 0));
    buildEventList();
    if (N) draw();

    sel.addEventListener("change", () => setPerspective(parseInt(sel.value, 10)));
    $("first").addEventListener("click", () => go(0));
    $("last").addEventListener("click", () => go(N - 1));
    $("prev").addEventListener("click", () => step(-1));
    $("next").addEventListener("click", () => step(1));
    $("next-decision").addEventListener("click", nextDecision);
    $("next-of-card").addEventListener("click", nextOfCard);
    $("branch").addEventListener("click", showBranch);
    $("filter-form").addEventListener("submit", (e) => { e.preventDefault(); applyFilter(); });
    $("filter").addEventListener("input", applyFilter);
    $("table").addEventListener("click", (e) => {  // select a card: "next of card" follows it
      const t = e.target.closest("[data-oid]");
      if (!t) return;
      ui.card = parseInt(t.dataset.oid, 10);
      draw();
    });
    $("prev-turn").addEventListener("click", () => turnStep(-1));
    $("next-turn").addEventListener("click", () => turnStep(1));
    $("jump-form").addEventListener("submit", (e) => { e.preventDefault(); go(parseInt($("jump-event").value, 10) || 0); });
    $("jump-turn").addEventListener("change", () => { const v = $("jump-turn").value; if (v !== "") go(parseInt(v, 10)); });
    const jumpTo = (e) => { const t = e.target.closest("[data-seq]"); if (t) go(parseInt(t.dataset.seq, 10)); };
    $("events").addEventListener("click", jumpTo);
    let pending = false;
    $("events").addEventListener("scroll", () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; drawRows(); });
    });
    $("causes").addEventListener("click", jumpTo);
    $("effects-of").addEventListener("click", jumpTo);
    document.addEventListener("keydown", (e) => {
      const tag = e.target && e.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) return;
      const keys = {
        ArrowRight: () => step(1), ArrowDown: () => step(1),
        ArrowLeft: () => step(-1), ArrowUp: () => step(-1),
        d: nextDecision, c: nextOfCard,
        PageDown: () => turnStep(1), PageUp: () => turnStep(-1),
        Home: () => go(0), End: () => go(N - 1),
      };
      const fn = keys[e.key];
      if (fn) { e.preventDefault(); fn(); }
    });
    document.body.dataset.ready = "1";
  }

  init();
})();
