"""The kernel under the apps: HTTP caching, pagination, cache generations, text safety,
environment helpers, the coded error base and its rendering at the edges.

Every app imports it; it imports no app (``docs/architecture.md``).
"""
