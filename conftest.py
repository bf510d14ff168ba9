"""Root pytest configuration: the loopback fake Discord fixture for every test module."""

pytest_plugins = ["tests.discord_fake.fixtures"]
