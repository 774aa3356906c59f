"""The ``mtgk`` commands, one module a command (``mtgk play`` is
:mod:`mtgk.tools.commands.play`): each has ``setup(parser)``, which adds the command's
arguments and returns the function that runs it.  :data:`mtgk.tools.cli.COMMANDS` lists
them; what they share is :mod:`mtgk.tools.cli_base`."""
