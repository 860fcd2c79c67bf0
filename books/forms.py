"""The forms librarians fill in: a book's details and its collections."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from books import authors, languages
from books.models import Book, Collection

MAX_COLLECTION_NAME = 100


class BookForm(forms.ModelForm):
    """A book's title, authors, year, edition, languages and collections.

    ``new_collection`` puts the book on a collection made on the spot.
    """

    languages = forms.MultipleChoiceField(
        choices=languages.CHOICES, required=False, label=_("Languages"),
        widget=forms.CheckboxSelectMultiple)
    collections = forms.ModelMultipleChoiceField(
        queryset=Collection.objects.all(), required=False, label=_("Collections"),
        widget=forms.CheckboxSelectMultiple)
    new_collection = forms.CharField(
        max_length=MAX_COLLECTION_NAME, required=False, label=_("Add to a new collection"),
        widget=forms.TextInput(attrs={"placeholder": _("e.g. Networking, Law")}))

    class Meta:
        model = Book
        fields = ["title", "authors", "year", "edition", "languages", "collections"]
        labels = {"title": _("Title"), "authors": _("Authors"), "year": _("Year"),
                  "edition": _("Edition")}
        widgets = {"authors": forms.Textarea(attrs={"rows": 3})}
        help_texts = {"authors": _("As the book prints them, one name a line."),
                      "year": "", "edition": _("As printed: “2nd”, “第3版”.")}
        error_messages = {"title": {"required": _("A book needs a title.")}}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and not self.is_bound:
            self.initial["languages"] = self.instance.language_list
            self.initial["authors"] = "\n".join(self.instance.author_list)
        self.fields["title"].widget.attrs["maxlength"] = 500

    def clean_title(self):
        title = " ".join(self.cleaned_data["title"].split())
        if not title:
            raise forms.ValidationError(_("A book needs a title."))
        return title

    def clean_authors(self):
        names = authors.typed(self.cleaned_data["authors"])
        if len(authors.SEPARATOR.join(names)) > authors.MAX_LENGTH:
            raise forms.ValidationError(
                _("The names come to more than %(most)s characters together.") % {
                    "most": authors.MAX_LENGTH})
        return authors.SEPARATOR.join(names)

    def clean_year(self):
        year = self.cleaned_data["year"]
        if year is not None and not 1 <= year <= timezone.now().year + 1:
            raise forms.ValidationError(_("Give the year the book was published, e.g. 2019."))
        return year

    def clean_languages(self):
        return ",".join(self.cleaned_data["languages"])

    def clean_new_collection(self):
        return " ".join(self.cleaned_data["new_collection"].split())


class CollectionForm(forms.ModelForm):
    class Meta:
        model = Collection
        fields = ["name"]

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        clash = Collection.objects.filter(name__iexact=name).exclude(pk=self.instance.pk)
        if not name:
            raise forms.ValidationError(_("Give the collection a name."))
        if clash.exists():
            raise forms.ValidationError(f"There is already a collection called “{name}”.")
        return name
