"""Bot-vs-bot tournaments: ``erqishi sim``."""
