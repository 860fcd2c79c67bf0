"""What the book-index core gives back: frozen records of plain data."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Locator:
    """One printed page reference of an entry ("45", "45–47", "xii"), placed where it can be."""

    label: str  # as printed
    page: int | None = None  # physical, 1-based; None: the printed page is not mapped
    last: int | None = None  # physical last page of a range (page itself for one page)

    @property
    def resolved(self) -> bool:
        return self.page is not None


@dataclass(frozen=True)
class IndexEntry:
    """One entry or sub-entry of a back-of-book index, as printed."""

    term: str
    parents: tuple[str, ...]  # chain of parent terms, outermost first; () for a main entry
    locators: tuple[Locator, ...]
    see: tuple[str, ...] = ()  # targets of "see" and "see also" (→, を見よ, も見よ)
    index: str = ""  # the heading of the index it belongs to ("Concept Index", 索引)
    index_page: int = 0  # physical page where it is printed
    group: str = ""  # the letter-group heading it is printed under ("A", "か"), "" if none

    @property
    def level(self) -> int:
        return len(self.parents)

    @property
    def parent(self) -> str | None:
        return " > ".join(self.parents) if self.parents else None


@dataclass(frozen=True)
class ListItem:
    """One line of a list of figures or tables: number, caption and page."""

    kind: str  # "figure" or "table"
    number: str  # as printed ("3.2", "12"), "" when unnumbered
    caption: str
    locator: Locator
    list_page: int


@dataclass(frozen=True)
class BackMatter:
    """The book's indexes and lists of figures and tables, read from its pages."""

    entries: list[IndexEntry]
    items: list[ListItem]
    index_pages: list[int]
    indexes: list[tuple[str, int]] = field(default_factory=list)  # (heading, first page)

    def locators(self) -> list[Locator]:
        return [loc for entry in self.entries for loc in entry.locators]
