"""The show server: Flask pages, a JSON API and Socket.IO namespaces over the table runtime.

The only layer that knows Flask, Socket.IO and Redis clients. ``create_app`` builds a fresh
app each call (no module-level app), so tests can run as many as they need.
"""
