"""Template helpers for the chat page: cards as shown, answers with their citations linked."""

import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

from chat import cards, clarify
from chat.signals import is_removal

register = template.Library()
_CITATION = re.compile(r"\[(\d+(?:, \d+)*)\]")


@register.simple_tag
def shown_cards(answer):
    """Return the answer's cards ready for the card template."""
    return [cards.present(card, answer.pk) for card in answer.results or []]


@register.simple_tag
def guide_of(answer):
    """Return the answer's guide ready for the guide template (None without one)."""
    return cards.guide_view(answer.guide, answer.recommendation, answer.pk)


@register.simple_tag
def refined_of(answer):
    """Return the place the model's terms put first after the cards (None without one)."""
    return cards.refined_view(answer.guide, answer.pk)


@register.simple_tag
def clarify_of(answer):
    """Return the librarian's question about close places (None where it asked none)."""
    return clarify.view(answer.guide, answer.pk)


@register.simple_tag
def recommendations(answer):
    """Return the answer's which-book recommendations, each with a link to its place."""
    return cards.picks(answer.recommendation)


@register.filter
def cited(text, answer):
    """Return the answer text as HTML, each citation [n] a link to card n of this answer."""

    def link(match):
        numbers = match.group(1).split(", ")
        links = (format_html('<a href="#m{}-r{}" class="cite">{}</a>', answer.pk, n, n)
                 for n in numbers)
        return "[" + ", ".join(links) + "]"

    return mark_safe(_CITATION.sub(link, escape(text)))  # noqa: S308 (escaped above)


@register.filter
def recommendation_text(value):
    return cards.recommendation_text(value)


@register.filter
def removal(note) -> bool:
    """Return whether an answer's note says a book it cited was deleted since."""
    return is_removal(note or "")


@register.filter
def answer_language(answer):
    """Return the language an answer's labels are shown in: its question's."""
    return cards.answer_language(answer)


@register.filter
def question_language(text):
    return cards.question_language(text)
