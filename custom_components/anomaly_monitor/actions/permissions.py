"""Who may make the integration's actions act on devices."""

from __future__ import annotations

from collections.abc import Iterable

from homeassistant.auth.permissions.const import POLICY_CONTROL
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import Unauthorized, UnknownUser


async def async_require_control(
    hass: HomeAssistant, context: Context, entity_ids: Iterable[str]
) -> None:
    """Raise ``Unauthorized`` unless the caller may control every one of ``entity_ids``.

    The same rule as Home Assistant's own entity actions: a call without a user (an
    automation, a script HA started) is HA acting for itself; a user must exist and hold
    ``POLICY_CONTROL`` on each entity (administrators hold it on all).
    """
    if context.user_id is None:
        return
    user = await hass.auth.async_get_user(context.user_id)
    if user is None:
        raise UnknownUser(context=context, permission=POLICY_CONTROL)
    for entity_id in entity_ids:
        if not user.permissions.check_entity(entity_id, POLICY_CONTROL):
            raise Unauthorized(context=context, entity_id=entity_id, permission=POLICY_CONTROL)
