"""The signal the project itself sends; each app connects to it in its AppConfig.ready."""

from django.dispatch import Signal

serving = Signal()
"""Sent by ``manage.py serve`` just before it answers requests, so that the apps start
what a served process runs beside them (the embedded workers, the question indexes
loaded ahead). A receiver may return a line for the console, or ""."""
