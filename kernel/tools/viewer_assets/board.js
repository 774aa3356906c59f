// mtgk board: how the table is drawn, shared by the replay viewer (viewer.js) and the
// play page of `mtgk serve` (serve.js). Both pages inline this script before their own.
// A state map is the one the kernel writes (mtgk.tools.viewer): "o<id>" the permanents,
// "bf" the battlefield's ids, "p<seat>", "h<seat>", "y<seat>" a player, its hand and
// graveyard, "g" the game.
"use strict";
// mtgkBoard(data): the drawing functions; data() the page's data now (players, teams,
// cards: the card texts by name)
function mtgkBoard(data) {
  const $ = (id) => document.getElementById(id);

  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }

  function playerName(i) { const P = data().players; return P[i] !== undefined ? P[i] : "player " + i; }
  // the players of seat i's team (Two-Headed Giant), else seat i alone
  function teamOf(i) { return (data().teams || []).find((t) => t.includes(i)) || [i]; }
  function mana(s) { return s ? s.split("").map((c) => "{" + c + "}").join("") : "empty"; }

  function tooltip(name) {
    const c = data().cards[name];
    if (!c) return name || "";
    const [cost, type, text, pt, loy] = c;
    return [name + (cost ? "  " + cost : ""), type, text, pt, loy ? "Loyalty " + loy : ""].filter(Boolean).join("\n");
  }

  // mark(oid): the classes a card is drawn with besides its own ("" none), as
  // "involved" (the viewer: in the current event) or "can" (serve: a click picks it)
  const unmarked = () => "";

  // a card in a hand, graveyard or exile ([oid, name], or null: hidden)
  function mini(card, mark) {
    if (!card) return '<span class="mini hidden" title="a card you cannot see">hidden card</span>';
    const more = (mark || unmarked)(card[0]);
    return '<span class="mini' + (more ? " " + more : "") + '" data-oid="' + card[0] + '" title="' + esc(tooltip(card[1])) + '">' + esc(card[1]) + "</span>";
  }

  const isLand = (o) => o.ty && /\bLand\b/.test(o.ty) && !o.pt;

  function permanent(oid, o, mark) {
    const cls = ["perm"];
    if (isLand(o)) cls.push("land");
    if (o.tp) cls.push("tapped");
    if (o.n === null) cls.push("hidden-card");
    const more = (mark || unmarked)(oid);
    if (more) cls.push(more);
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
    if (o.pt) {  // (bpt: the printed power/toughness, when it differs)
      let dir = "";
      if (o.bpt) dir = o.pt[0] + o.pt[1] > o.bpt[0] + o.bpt[1] ? " up" : (o.pt[0] + o.pt[1] < o.bpt[0] + o.bpt[1] ? " down" : "");
      const was = o.bpt ? ' title="printed ' + o.bpt[0] + "/" + o.bpt[1] + '"' : "";
      corner = '<span class="pt' + dir + '"' + was + ">" + o.pt[0] + "/" + o.pt[1] + "</span>";
    } else if (o.l !== undefined) {
      corner = '<span class="loy" title="loyalty">' + o.l + "</span>";
    }
    const tip = o.n === null ? "" : tooltip(o.n);
    return '<div class="' + cls.join(" ") + '" data-oid="' + oid + '" title="' + esc(tip) + '">' +
      '<div class="name">' + esc(name) + "</div>" +
      (o.ty ? '<div class="type">' + esc(o.ty) + "</div>" : "") +
      '<div class="badges">' + badges.join("") + "</div>" + corner + "</div>";
  }

  // seat's permanents: a row of lands and a row of the rest, each with the cards
  // attached to it drawn under it
  function battlefield(m, seat, mark) {
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
      let html = '<div class="holder">' + permanent(id, o, mark);
      for (const a of attached[id] || []) {
        const ao = m["o" + a];
        html += '<span class="attach" data-oid="' + a + '" title="' + esc(ao.n ? tooltip(ao.n) : "") + '">⤷ ' + esc(ao.n || "hidden card") + (ao.c !== o.c ? " (" + esc(playerName(ao.c)) + ")" : "") + "</span>";
      }
      html += "</div>";
      rows[isLand(o) ? "land" : "other"].push(html);
    }
    return '<div class="battlefield" id="bf-' + seat + '">' +
      '<div class="row creatures">' + rows.other.join("") + "</div>" +
      '<div class="row lands">' + rows.land.join("") + "</div></div>";
  }

  // a player: name, result, life, library, mana, hand and graveyard. opt: you (the
  // page's own player), deck (its deck's name), landsPlayed (show the count), graveOpen
  // (the graveyard drawn open), mark (as for mini)
  function playerPanel(m, seat, opt) {
    const p = m["p" + seat] || [0, 0, 0, "", 0, 0];
    const g = m.g || [0, 0, "", 0, -2];
    const hand = m["h" + seat] || [];
    const grave = m["y" + seat] || [];
    let badge = "";
    if (g[3] && g[4] !== null && g[4] >= 0 && teamOf(g[4]).includes(seat)) badge = '<span class="badge won">won</span>';
    else if (p[4]) badge = '<span class="badge lost">lost</span>';
    const deck = opt.deck ? '<span class="stat">' + esc(opt.deck) + "</span>" : "";
    return '<div class="player' + (g[1] === seat && g[0] ? " active" : "") + (opt.you ? " you" : "") + '" id="player-' + seat + '">' +
      '<span class="pname" id="name-' + seat + '">' + esc(playerName(seat)) + (opt.you ? " (you)" : "") + "</span>" + badge + deck +
      '<span><span class="life-label">life </span><span class="life" id="life-' + seat + '">' + p[0] + "</span></span>" +
      '<span class="stat">library <b id="library-' + seat + '">' + p[1] + "</b></span>" +
      '<span class="stat">mana <b id="mana-' + seat + '">' + esc(mana(p[3])) + "</b></span>" +
      (opt.landsPlayed ? '<span class="stat">lands played <b>' + p[5] + "</b></span>" : "") +
      '<div class="hand" id="hand-' + seat + '"><span class="zone-label">hand (' + p[2] + ")</span>" +
      hand.map((c) => mini(c, opt.mark)).join("") + "</div>" +
      '<details class="grave" id="graveyard-' + seat + '"' + (opt.graveOpen ? " open" : "") + '><summary>graveyard (' + grave.length + ")</summary>" +
      '<div class="graveyard">' + grave.map((c) => mini(c, opt.mark)).join("") + "</div></details></div>";
  }

  // the stack or the triggers waiting: [id, text, kind, controller, targets]
  function items(list) {
    return list.map((it) => {
      const [id, text, kind, ctrl, targets] = it;
      return '<div class="item" data-oid="' + id + '">' + esc(text) + ' <span class="who">(' + esc(kind) + ", " + esc(playerName(ctrl)) + ")</span>" +
        (targets.length ? " → " + esc(targets.join(", ")) : "") + "</div>";
    }).join("");
  }

  // fill a zone of the middle column (drawn faint when empty)
  function zone(id, html) {
    $(id).innerHTML = html;
    $(id).parentElement.classList.toggle("empty", !html);
  }

  return { $, esc, playerName, teamOf, mana, tooltip, mini, permanent, battlefield, playerPanel, items, zone };
}
