"""Read: what a question asks, the books and the scope it names, follow-ups."""
