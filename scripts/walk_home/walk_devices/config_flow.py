from homeassistant import config_entries


class Flow(config_entries.ConfigFlow, domain="walk_devices"):
    VERSION = 1

    async def async_step_user(self, user_input=None):
        return self.async_create_entry(title="Walk devices", data={})
