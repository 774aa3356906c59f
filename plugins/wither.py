"""Wither and infect (CR 702.80, 702.90): damage that results in counters.

A card whose facts list ``Wither`` (``Infect``) has the keyword (a keyword ability like
flying: granted, lost, copied); importing this module declares both and registers their
damage results with :func:`mtgk.cards.damage.register_damage_result`: damage from a source
with wither results in -1/-1 counters on a creature instead of marked damage; with infect
also poison counters on a player instead of life loss.  The damage is still dealt (every
"whenever ~ deals damage" trigger, lifelink and deathtouch see it).

    from mtgk.plugins.wither import WITHER  # (imported for its declarations)
"""

from __future__ import annotations

from mtgk.cards.damage import register_damage_result
from mtgk.cards.keywords import declare_keyword

WITHER = "wither"
INFECT = "infect"

declare_keyword(WITHER, "mtgk.plugins.wither",
                what="damage to creatures results in -1/-1 counters (CR 702.80)")
declare_keyword(INFECT, "mtgk.plugins.wither",
                what="damage results in -1/-1 counters and poison counters (CR 702.90)")
register_damage_result(WITHER, creatures="-1/-1")
register_damage_result(INFECT, creatures="-1/-1", players="poison")
