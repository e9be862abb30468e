"""The load benchmark's site (``bench/pages.py``): production settings plus a bare view."""
