import os
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand

from librarian.auth import LIBRARIANS_GROUP
from librarian.config import env_secret, env_str, setting


class Command(BaseCommand):
    help = (
        "Make sure an administrator account exists. Its password comes from "
        "LIBRARIAN_ADMIN_PASSWORD, or is generated once and written to the data directory."
    )

    def handle(self, **options):
        users = get_user_model()
        if users.objects.filter(is_superuser=True).exists():
            return
        username = env_str("ADMIN_USER", "admin")
        password = env_secret("ADMIN_PASSWORD")
        where = "from LIBRARIAN_ADMIN_PASSWORD"
        if not password:
            password = secrets.token_urlsafe(12)
            path = setting("DATA_DIR") / "admin-password.txt"
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(password + "\n")
            where = f"generated and saved in {path}"
        admin = users.objects.create_superuser(username=username, email="", password=password)
        admin.groups.add(Group.objects.get_or_create(name=LIBRARIANS_GROUP)[0])
        self.stdout.write(f"Created the administrator “{username}”; password {where}.")
        if where.startswith("generated"):
            self.stdout.write(f"Password: {password}")
