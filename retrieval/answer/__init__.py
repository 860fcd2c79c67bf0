"""Present: the cards, the books to read first, the guide, the one short question, the model's extras."""
