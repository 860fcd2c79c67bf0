"""Gather: the places that answer, one function per kind, ranked over the shelf."""
