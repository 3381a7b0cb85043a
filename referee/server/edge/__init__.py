"""The server's edge: what each side of the show talks to, one module per side.

``create_app`` (referee/server/app.py) builds the parts once and hands them to each module's
``register`` as a ``Wiring``. A side's module holds its pages and its Socket.IO namespace:

- ``site``: what every page shares (security headers, the body limit, health, static files);
- ``public``: the projector and the audience's screens (``/display``, ``/public``);
- ``crowd``: the hall's phones (``/a``, ``/crowd``);
- ``seat``: the players' phones (``/p``, ``/join``, ``/seat``);
- ``dealer``: the console, its prints and ``/dealer``;
- ``api``: the staff's JSON API (docs/api.md).

Each is a thin adapter over ``Service``: it authenticates, parses, calls one method and maps
errors to answers in one place (``wiring.guard``). Nothing here knows a game's rules.
"""
