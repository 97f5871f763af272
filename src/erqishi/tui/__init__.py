"""The terminal game (Textual): ``erqishi play``."""
