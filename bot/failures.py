"""A failure at start that is one line a server owner can act on, raised by a service the bot
owns (the Activity's web server, on a port already taken): the command line prints it and
exits with code 1, like the runner's own start failures."""


class ServiceUnavailable(Exception):
    """A service cannot start; the message says which, where, why and what to do."""
